import { hydrateInSlices } from './hydrate-in-slices';
import type { PageData } from './content/embedded';
import { landingTree } from './pages/landing-tree';

/**
 * The landing's whole stylesheet arrives after its first paint, with the code of the sections
 * below the first screen, which were drawn until then with the inline sheet's rules alone and now
 * take their colours from it; where a rule also gives them a transition (a link's colour, a
 * field's border) the browser animates from the unstyled colour to the styled one: about 40
 * transitions of 200 ms, frames of style and paint that a phone spends while the page hydrates
 * (Lighthouse's Total Blocking Time) on a change nobody should see. Each transition that starts
 * until two frames after the sheet has come is finished at once.
 */
function settleTransitionsWhileSheetArrives(): void {
  // Opened at a section (`/#contact`), the page was first drawn with the whole sheet.
  if (document.querySelector('link[rel="stylesheet"]')) return;
  const watch = new AbortController();
  // Seen on the way down (a <link>'s load event does not bubble); if the sheet never comes, the
  // page has no transition to run.
  const options = { capture: true, signal: watch.signal };
  document.addEventListener(
    'transitionrun',
    (event) => {
      // With its pseudo-elements' (`subtree`), whose events name their element.
      for (const animation of (event.target as Element).getAnimations({ subtree: true })) {
        if (animation instanceof CSSTransition) animation.finish();
      }
    },
    options,
  );
  document.addEventListener(
    'load',
    (event) => {
      if ((event.target as Element).matches('link[rel="stylesheet"]')) requestAnimationFrame(() => requestAnimationFrame(() => watch.abort()));
    },
    options,
  );
}

/**
 * The pre-rendered `/` (or a language's `/de/` …), hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrate(container: HTMLElement, data: PageData): void {
  settleTransitionsWhileSheetArrives();
  hydrateInSlices(container, landingTree(data));
}
