import { hydrateInSlices } from './hydrate-in-slices';
import type { PageData } from './content/embedded';
import { landingTree } from './pages/landing-tree';

/**
 * Colours that nobody should see ease in. Two changes would start the links' and fields' colour
 * transitions (200 ms each) from colours that were never the page's:
 * - The landing's whole stylesheet arrives after its first paint, with the code of the sections
 *   below the first screen, which were drawn until then with the inline sheet's rules alone and
 *   now take their colours from it: about 40 transitions, frames of style and paint that a phone
 *   spends while the page hydrates (Lighthouse's Total Blocking Time). Each transition that
 *   starts until two frames after the sheet has come is finished at once.
 * - The sections after the first screen are drawn only when they come near it
 *   (`content-visibility: auto`, index.css), and one left for later keeps the colours it was last
 *   styled with: whatever changed meanwhile (the sheet's arrival, the visitor's switch of scheme)
 *   would ease in as it comes on the screen. The browser starts those transitions in the frame
 *   that draws the section, before it says the section is drawn; so each transition that starts
 *   in a section left for later is finished at once, until two frames after it is drawn.
 * A hover's, later, runs.
 */
function settleTransitions(): void {
  // Opened at a section (`/#contact`), the page was first drawn with the whole sheet.
  let arriving = !document.querySelector('link[rel="stylesheet"]');
  const later = new WeakSet<Element>();
  // The sections index.css leaves for later when far from the screen (its selector), each skipped
  // now if its first child is (every section's first child is shown).
  for (const section of document.querySelectorAll('#main > section:nth-of-type(n + 3)')) {
    if (!section.firstElementChild?.checkVisibility({ contentVisibilityAuto: true })) later.add(section);
  }
  // Each seen on the way down: a <link>'s load and a section's change of state do not bubble.
  document.addEventListener(
    'load',
    (event) => {
      if ((event.target as Element).matches('link[rel="stylesheet"]')) requestAnimationFrame(() => requestAnimationFrame(() => (arriving = false)));
    },
    true,
  );
  document.addEventListener(
    'contentvisibilityautostatechange',
    (event) => {
      const section = event.target as Element;
      if ((event as ContentVisibilityAutoStateChangeEvent).skipped) later.add(section);
      else requestAnimationFrame(() => requestAnimationFrame(() => later.delete(section)));
    },
    true,
  );
  document.addEventListener(
    'transitionrun',
    (event) => {
      const target = event.target as Element;
      // Outside the sections `closest` is null, which no WeakSet has.
      if (arriving || later.has(target.closest('#main > section')!)) {
        // With its pseudo-elements' (`subtree`), whose events name their element.
        for (const animation of target.getAnimations({ subtree: true })) {
          if (animation instanceof CSSTransition) animation.finish();
        }
      }
    },
    true,
  );
}

/**
 * The pre-rendered `/` (or a language's `/de/` …), hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrate(container: HTMLElement, data: PageData): void {
  settleTransitions();
  hydrateInSlices(container, landingTree(data));
}
