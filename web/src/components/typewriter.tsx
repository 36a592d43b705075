import { useEffect, useState } from 'react';
import { PAUSE_MS, START_DELAY_MS, initialState, next, visibleText } from './typewriter-machine';
import { useReducedMotion } from './use-reduced-motion';

/**
 * Types, pauses, erases and loops through `phrases` while `running` (its line in view, which the
 * hero watches), and rests where it was while not, so a visitor reading further down spends nothing on
 * it. Screen readers get the phrases once, as a static list; the animated text is hidden from
 * them. Under prefers-reduced-motion the phrases are shown still (chosen by CSS, so the
 * pre-rendered HTML is already right) and no timer runs.
 */
export function Typewriter({ phrases, running, className = '' }: { phrases: readonly string[]; running: boolean; className?: string }) {
  const reduced = useReducedMotion();
  const [state, setState] = useState(initialState);
  const step = next(state, phrases);
  // Each state schedules the next. The first character waits the start delay, later ones their step's delay.
  useEffect(() => {
    if (!running || reduced) return;
    const timer = window.setTimeout(() => setState(step.state), state === initialState ? START_DELAY_MS : step.delay);
    return () => window.clearTimeout(timer);
  }, [running, reduced, state, step]);

  return (
    <span className={className}>
      <span className="sr-only">{phrases.join(', ')}</span>
      {/* Both versions are in the HTML and CSS picks one, so the pre-rendered page already
          matches the visitor's motion preference and nothing shifts when it hydrates. */}
      <span aria-hidden="true" data-testid="typewriter-static" className="motion-safe:hidden">
        {phrases.join(' · ')}
      </span>
      {/* The caret blinks only while a complete phrase is held (its next step waits the pause; index.css), steady while typing. */}
      <span
        aria-hidden="true"
        data-testid="typewriter"
        data-holding={step.delay === PAUSE_MS}
        className="typewriter-caret motion-reduce:hidden"
      >
        {visibleText(state, phrases)}
      </span>
    </span>
  );
}
