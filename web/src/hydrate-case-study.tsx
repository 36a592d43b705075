import { hydrateInSlices } from './hydrate-in-slices';
import type { PageData } from './content/embedded';
import { caseStudyTree } from './pages/case-study-tree';

/**
 * A pre-rendered case study's page (`/projects/<slug>/`, `/de/projects/<slug>/`), hydrated without
 * the router: a chunk of its own, which `main.tsx` loads once the first screen is drawn. Its tree
 * (`pages/case-study-tree.tsx`) is the one `render-entry.tsx`'s `renderCaseStudy` draws.
 */
export function hydrate(container: HTMLElement, { document, locale, caseStudy }: PageData): void {
  if (!caseStudy) throw new Error('the page data has no case study');
  hydrateInSlices(container, caseStudyTree(document, locale, caseStudy));
}
