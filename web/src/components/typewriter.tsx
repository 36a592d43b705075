import { useEffect, useRef, useState } from 'react';
import { START_DELAY_MS, initialState, next, visibleText } from './typewriter-machine';
import { useReducedMotion } from './use-reduced-motion';

/**
 * Types, pauses, erases and loops through `phrases`, starting only once the line scrolls into
 * view. Screen readers get the phrases once, as a static list; the animated text is hidden from
 * them. Under prefers-reduced-motion the phrases are shown still.
 */
export function Typewriter({ phrases, className = '' }: { phrases: readonly string[]; className?: string }) {
  const reduced = useReducedMotion();
  const [state, setState] = useState(initialState);
  const [started, setStarted] = useState(false);
  const ref = useRef<HTMLSpanElement>(null);

  // Start once the line is in view.
  useEffect(() => {
    if (reduced || started) return;
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setStarted(true);
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [reduced, started]);

  // Each state schedules the next. The first character waits the start delay, later ones their step's delay.
  useEffect(() => {
    if (!started || reduced) return;
    const step = next(state, phrases);
    const delay = state === initialState ? START_DELAY_MS : step.delay;
    const timer = window.setTimeout(() => setState(step.state), delay);
    return () => window.clearTimeout(timer);
  }, [started, reduced, state, phrases]);

  return (
    <span className={className}>
      <span className="sr-only">{phrases.join(', ')}</span>
      {reduced ? (
        <span aria-hidden="true" data-testid="typewriter-static">
          {phrases.join(' · ')}
        </span>
      ) : (
        <span ref={ref} aria-hidden="true" data-testid="typewriter">
          {visibleText(state, phrases)}
          <span className="typewriter-caret" />
        </span>
      )}
    </span>
  );
}
