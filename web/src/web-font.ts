/**
 * The page's one web font, Inter (see index.css for its subset and its fallback), declared here
 * rather than in a stylesheet, so that a visitor's first view never waits for it:
 *
 * - a public page's first view fetches it once its first screen is painted (`cacheWebFont`), off
 *   the first paint's path (Lighthouse counted a preloaded font as about 370 ms of the largest
 *   paint), and keeps the fallback: changing to the font in a view already drawn moves text
 *   whose lines break elsewhere (a layout shift of about 0.008 on a phone, measured), so the
 *   fallback is sized to take Inter's room and the first view stays in it;
 * - the next page of the visit (one reached from a page of this site, as its referrer says) has
 *   it declared by its head before the first paint (the inline script scripts/prerender.mjs
 *   writes from inter-face.json), and draws in Inter from the cache at once. Nothing is stored
 *   on the visitor's device to know it: the site stores nothing there (the insights' tests
 *   check), and the referrer is what the browser sends anyway;
 * - the app's own pages (the sign-in, the dashboard, the error page), whose first paint is an empty
 *   shell the client then draws into, declare it in their inline sheet (scripts/prerender.mjs).
 */
import face from './fonts/inter-face.json';
import interUrl from './fonts/inter-latin.woff2?url';

/** Whether the page has the font already (declared by the head's script, or here before). */
function declared(): boolean {
  return [...document.fonts].some((f) => f.family.replace(/"/g, '') === face.family);
}

function newFace(): FontFace | undefined {
  if (typeof FontFace === 'undefined' || declared()) return undefined;
  return new FontFace(face.family, `url(${interUrl}) format('woff2')`, {
    weight: face.weight,
    display: face.display as FontDisplay,
    unicodeRange: face.unicodeRange,
  });
}

/** Fetches the font into the cache for the next view, leaving this one in the fallback: a public page once painted. */
export function cacheWebFont(): void {
  void newFace()?.load().catch(() => {});
}
