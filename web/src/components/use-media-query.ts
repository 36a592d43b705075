import { useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, kept up to date. On the server and during hydration it is
 * `false`, so the first client render matches the pre-rendered HTML; React re-renders right after.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

const noSubscription = () => () => {};

/** `false` on the server and during hydration, `true` once the page runs in a browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
