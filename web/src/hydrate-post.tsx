import { hydrateInSlices } from './hydrate-in-slices';
import type { PageData } from './content/embedded';
import { postTree } from './pages/post-tree';

/**
 * A pre-rendered post's page (`/writing/<slug>/`) or page of the writing index (`/writing/` …),
 * hydrated without the router: a chunk of its own, which `main.tsx` loads once the first screen
 * is drawn. Its trees (`pages/post-tree.tsx`) are the ones `render-entry.tsx`'s `renderPost` and
 * `renderWriting` draw.
 */
export function hydrate(container: HTMLElement, { document, locale, post, writingIndex }: PageData): void {
  const view = post ? { post } : writingIndex ? { writingIndex } : null;
  if (!view) throw new Error('the page data has no post and no writing index');
  hydrateInSlices(container, postTree(document, locale, view));
}
