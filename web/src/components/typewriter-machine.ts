/**
 * The typewriter as a pure state machine, so its timing can be tested without a browser:
 * `next(state)` returns the following state and how long to wait before showing it.
 */
export const TYPE_MS = 100;
export const ERASE_MS = 50;
export const PAUSE_MS = 1000;
export const START_DELAY_MS = 100;

export interface TypewriterState {
  /** Which phrase is being typed or erased. */
  phrase: number;
  /** How many of its characters are shown. */
  length: number;
  phase: 'typing' | 'erasing';
}

export const initialState: TypewriterState = { phrase: 0, length: 0, phase: 'typing' };

/** The text shown for a state. */
export function visibleText(state: TypewriterState, phrases: readonly string[]): string {
  return (phrases[state.phrase] ?? '').slice(0, state.length);
}

/**
 * One step: type a character (100 ms), and once the phrase is complete wait 1000 ms before
 * erasing it a character at a time (50 ms); once empty, move on to the next phrase, looping forever.
 */
export function next(state: TypewriterState, phrases: readonly string[]): { state: TypewriterState; delay: number } {
  const full = (phrases[state.phrase] ?? '').length;
  if (state.phase === 'typing') {
    if (state.length < full) return { state: { ...state, length: state.length + 1 }, delay: TYPE_MS };
    // Complete: hold the phrase, then start erasing.
    return { state: { ...state, phase: 'erasing', length: full - 1 }, delay: PAUSE_MS };
  }
  if (state.length > 0) return { state: { ...state, length: state.length - 1 }, delay: ERASE_MS };
  const phrase = phrases.length === 0 ? 0 : (state.phrase + 1) % phrases.length;
  return { state: { phrase, length: 1, phase: 'typing' }, delay: TYPE_MS };
}
