import { pageData } from './content/embedded';
import { startInsights } from './insights/beacon';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Resolves once the first screen is on the display: the hero's photo (the largest element a phone
 * draws first) decoded and shown, and a frame drawn since. The page is whole and styled without
 * JavaScript, so React's code (most of the page's bytes) and its hydration, the page's longest
 * task, wait for that picture rather than compete with it for the network and the processor.
 *
 * Shown is the photo's Element Timing entry where the browser reports one (Chromium), at most a
 * second on: a frame callback runs before its frame reaches the display, so frames alone may start
 * React's requests before the photo's paint, the moment Lighthouse takes for the largest paint
 * and which it counts every earlier request towards.
 */
async function firstScreenPainted(root: HTMLElement): Promise<void> {
  const photo = root.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  if (photo) {
    await photo.decode().catch(() => {});
    const { top, bottom } = photo.getBoundingClientRect();
    if (bottom > 0 && top < innerHeight && PerformanceObserver.supportedEntryTypes.includes('element')) {
      await new Promise((resolve) => {
        // The photo is the one element the page names for Element Timing: one entry, then no more.
        new PerformanceObserver(resolve).observe({ type: 'element', buffered: true });
        setTimeout(resolve, 1000);
      });
    }
  }
  await nextFrame();
  await nextFrame();
}

// `/`, each language's page (`/de/` …), an application link's (`/a/<slug>`, one of those), each
// case study's (`/projects/<slug>/`, hydrated by a chunk of its own) and the writing's (a post's,
// the index's pages: another chunk) arrive
// pre-rendered (see build-facts.tsx and the server's content/render.rs) and are hydrated without
// the router, from a chunk loaded once the page is drawn; a link's visit (and a case study or the
// writing opened from a link's page) is counted by a chunk of its own. Every other route arrives as the shell, its
// root empty, and is rendered by the router, a chunk loaded only then.
if (container.firstElementChild) {
  const root = container;
  // A case study's page (`/projects/<slug>/`), and a post's or the writing index's (`/writing/…`),
  // are hydrated by chunks of their own, without the landing's sections; each chunk exports `hydrate`.
  const caseStudy = root.querySelector('[data-case-study]');
  const writing = root.querySelector('[data-post],[data-writing]');
  const painted = firstScreenPainted(root);
  // The web font, for the next view (a chunk of its own, off the initial JavaScript).
  void painted.then(() => import('./web-font')).then((font) => font.cacheWebFont());
  const started = painted
    .then(() =>
      Promise.all([
        caseStudy ? import('./hydrate-case-study') : writing ? import('./hydrate-post') : import('./hydrate-landing'),
        pageData(),
      ]),
    )
    .then(([{ hydrate }, data]) => hydrate(root, data));
  // Visitor insights count the page once it is hydrated (the app's own pages count nothing).
  startInsights(started);
  // A link's page (`/a/<slug>`), or a case study's or the writing's opened from one (`?via=<slug>`).
  if (location.pathname[2] === '/' || ((caseStudy || writing) && /[?&]via=/.test(location.search))) {
    void started.then(() => import('./links/visit')).then((visit) => visit.startVisit());
  }
} else {
  const root = container;
  void Promise.all([import('./app'), pageData()]).then(([{ renderApp }, data]) => renderApp(root, data));
}
