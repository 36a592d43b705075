import { describe, expect, test } from 'vitest';
import { ERASE_MS, PAUSE_MS, TYPE_MS, initialState, next, visibleText, type TypewriterState } from './typewriter-machine';

const phrases = ['Front End Developer', 'Web Developer', 'React Enthusiast'];

/** Runs the machine and records what is shown after each step and the wait before it. */
function run(steps: number) {
  let state: TypewriterState = initialState;
  const frames: { text: string; delay: number }[] = [];
  for (let i = 0; i < steps; i += 1) {
    const step = next(state, phrases);
    state = step.state;
    frames.push({ text: visibleText(state, phrases), delay: step.delay });
  }
  return frames;
}

describe('the typewriter', () => {
  test('types the first phrase a character every 100 ms', () => {
    const frames = run(phrases[0]!.length);
    expect(frames.map((f) => f.text)).toEqual([...phrases[0]!].map((_, i) => phrases[0]!.slice(0, i + 1)));
    expect(frames.every((f) => f.delay === TYPE_MS)).toBe(true);
  });

  test('pauses 1000 ms on the full phrase, then erases a character every 50 ms', () => {
    const n = phrases[0]!.length;
    const frames = run(2 * n + 1);
    expect(frames[n]).toEqual({ text: phrases[0]!.slice(0, n - 1), delay: PAUSE_MS });
    const erasing = frames.slice(n + 1, 2 * n);
    expect(erasing.every((f) => f.delay === ERASE_MS)).toBe(true);
    expect(frames[2 * n - 1]!.text).toBe('');
    // Then the next phrase starts typing.
    expect(frames[2 * n]).toEqual({ text: 'W', delay: TYPE_MS });
  });

  test('loops through every phrase and back to the first', () => {
    const complete = new Set<string>();
    let state = initialState;
    let firstAgain = false;
    for (let i = 0; i < 500 && !firstAgain; i += 1) {
      state = next(state, phrases).state;
      const text = visibleText(state, phrases);
      if (phrases.includes(text)) complete.add(text);
      if (complete.size === 3 && state.phrase === 0 && text === 'F') firstAgain = true;
    }
    expect([...complete]).toEqual(phrases);
    expect(firstAgain).toBe(true);
  });
});
