import { startTransition, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/**
 * Hydrates a pre-rendered page in a transition: React then hydrates in slices of a few
 * milliseconds and yields to the browser between them, so a tap or a key while the page hydrates
 * is answered at once and hydrating makes no long task (Lighthouse's Total Blocking Time). An
 * event on a part not yet hydrated is replayed once it is. The tree is a page's from
 * `pages/*-tree.tsx`, the one its pre-rendering drew.
 */
export function hydrateInSlices(container: HTMLElement, tree: ReactNode): void {
  startTransition(() => {
    hydrateRoot(container, tree);
  });
}
