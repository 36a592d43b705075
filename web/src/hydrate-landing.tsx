import { hydrateInSlices } from './hydrate-in-slices';
import type { PageData } from './content/embedded';
import { landingTree } from './pages/landing-tree';

/** Finishes the CSS transitions of the element an event names, and of its pseudo-elements and descendants. */
function finishTransitions(event: Event): void {
  for (const animation of (event.target as Element).getAnimations({ subtree: true })) {
    if (animation instanceof CSSTransition) animation.finish();
  }
}

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
  document.addEventListener('transitionrun', finishTransitions, options);
  document.addEventListener(
    'load',
    (event) => {
      if ((event.target as Element).matches('link[rel="stylesheet"]')) requestAnimationFrame(() => requestAnimationFrame(() => watch.abort()));
    },
    options,
  );
}

/**
 * The sections after the first screen are drawn only when they come near it (`content-visibility:
 * auto`, index.css), and one left for later keeps the colours it was last styled with: whatever
 * changed meanwhile (the whole stylesheet's arrival, the visitor's switch of scheme) would ease in
 * through its links' and fields' transitions as it comes on the screen, from colours nobody saw.
 * The browser starts those transitions in the frame that draws the section, before it says the
 * section is drawn; so each transition that starts in a section left for later is finished at
 * once, until two frames after the section is drawn. A hover's, later, runs.
 */
function settleSectionsAsTheyAreDrawn(): void {
  const later = new WeakSet<Element>();
  for (const section of document.querySelectorAll('#main > section')) {
    if (!section.firstElementChild?.checkVisibility({ contentVisibilityAuto: true })) later.add(section);
  }
  // Seen on the way down: a section's change of state does not bubble.
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
      if (later.has((event.target as Element).closest('#main > section')!)) finishTransitions(event);
    },
    true,
  );
}

/**
 * The pre-rendered `/` (or a language's `/de/` …), hydrated without the router: a chunk of its own, which `main.tsx` loads
 * once the first screen is drawn.
 */
export function hydrate(container: HTMLElement, data: PageData): void {
  settleTransitionsWhileSheetArrives();
  settleSectionsAsTheyAreDrawn();
  hydrateInSlices(container, landingTree(data));
}
