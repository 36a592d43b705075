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

  // Each state schedules the next; the first waits the start delay.
  const [stepped, setStepped] = useState(false);
  useEffect(() => {
    if (!started || reduced) return;
    const delay = stepped ? next(state, phrases).delay : START_DELAY_MS;
    const timer = window.setTimeout(() => {
      setState((current) => (stepped ? next(current, phrases).state : current));
      setStepped(true);
    }, delay);
    return () => window.clearTimeout(timer);
  }, [started, reduced, state, stepped, phrases]);

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
