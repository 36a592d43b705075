/**
 * The page's one web font, Inter (see index.css for its subset and its fallback), declared here
 * rather than in a stylesheet, so that a visitor's first view never waits for it:
 *
 * - a public page's first view fetches it once its first screen is painted (`cacheWebFont`), off
 *   the first paint's path (Lighthouse counted a preloaded font as about 370 ms of the largest
 *   paint), and keeps the fallback: changing to the font in a view already drawn moves text
 *   whose lines break elsewhere (a layout shift of about 0.008 on a phone, measured), so the
 *   fallback is sized to take Inter's room and the first view stays in it;
 * - once it has loaded, a mark in local storage tells the next view's head to declare it before
 *   its first paint (the inline script scripts/prerender.mjs writes from inter-face.json), which
 *   then draws in Inter from the cache at once, the next page of a visit and every later visit;
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

function remember(): void {
  try {
    localStorage.setItem(face.storageKey, '1');
  } catch {
    // Storage refused: every view is drawn in the fallback, which takes the same room.
  }
}

/** Fetches the font into the cache for the next view, leaving this one in the fallback: a public page once painted. */
export function cacheWebFont(): void {
  const font = newFace();
  if (font) void font.load().then(remember, () => {});
}
