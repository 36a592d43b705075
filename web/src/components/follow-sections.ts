import type { RefObject } from 'react';

/** While a chosen item's scroll runs: the timer that ends it if no `scrollend` comes. */
export type Chosen = RefObject<ReturnType<typeof setTimeout> | undefined>;

/**
 * Keeps the navigation's current item on the section in view: the one that crosses a line a third
 * of the way down the screen, or the last one once the page's end is in view, followed by an
 * IntersectionObserver. While `chosen` holds a timer (an item was clicked) the item stays as it
 * is; the scroll's end (`scrollend`, else a pause of 150 ms in the scroll events) releases it.
 * Loaded after hydration as a chunk of its own: the first screen needs none of it. Returns the
 * function that stops following.
 */
export function followSections(ids: readonly string[], show: (id: string) => void, chosen: Chosen): () => void {
  const stop = new AbortController();
  const listen = { passive: true, signal: stop.signal };
  const targets = ids.map((id) => document.getElementById(id)).filter((target) => target !== null);
  const follow = () => {
    if (chosen.current) return;
    const atEnd = scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
    const inView = targets.findLast((target) => atEnd || target.getBoundingClientRect().top <= innerHeight / 3);
    show(inView?.id ?? ids[0]!);
  };
  const release = () => {
    clearTimeout(chosen.current);
    chosen.current = undefined;
    follow();
  };
  const pause = 'onscrollend' in window ? 1000 : 150;
  const onScroll = () => {
    if (!chosen.current) return;
    clearTimeout(chosen.current);
    chosen.current = setTimeout(release, pause);
  };
  addEventListener('scroll', onScroll, listen);
  addEventListener('scrollend', release, listen);
  // The part of the screen below the line: a section leaving it has passed the line, and the
  // footer wholly in it is the page's end.
  const below = new IntersectionObserver(follow, { rootMargin: '-33% 0px 0px', threshold: [0, 1] });
  [...targets, document.querySelector('main ~ footer')].forEach((target) => target && below.observe(target));
  return () => {
    stop.abort();
    below.disconnect();
    clearTimeout(chosen.current);
  };
}
