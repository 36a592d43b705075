import { embeddedDocument } from './content/embedded';
import { startInsights } from './insights/beacon';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount into.');

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Resolves once the first screen is on the display: the hero's photo (the largest element a phone
 * draws first) decoded, and a frame drawn since. The page is whole and styled without JavaScript,
 * so React's code (most of the page's bytes) and its hydration, the page's longest task, wait
 * for that picture rather than compete with it for the network and the processor.
 */
async function firstScreenPainted(root: HTMLElement): Promise<void> {
  const photo = root.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  if (photo) await photo.decode().catch(() => undefined);
  await nextFrame();
  await nextFrame();
}

// `/` arrives pre-rendered (see entry-server.tsx) and is hydrated without the router, from a chunk
// loaded once the page is drawn. Every other route arrives as an empty shell and is rendered by
// the router, a chunk loaded only then.
let started: Promise<void>;
if (container.firstElementChild && window.location.pathname === '/') {
  const root = container;
  started = firstScreenPainted(root)
    .then(() => Promise.all([import('./hydrate-landing'), embeddedDocument()]))
    .then(([{ hydrateLanding }, content]) => hydrateLanding(root, content));
} else {
  const root = container;
  started = Promise.all([import('./app'), embeddedDocument()]).then(([{ renderApp }, content]) => renderApp(root, content));
}

startInsights(started);
