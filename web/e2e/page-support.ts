/** Shared set-up for the landing page's browser tests (page*.test.ts). */
import assert from 'node:assert/strict';
import { get } from 'node:http';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP, PHONE, openPage, type RunningServer, type WatchedPage } from './harness.ts';

export const VIEWPORTS = [
  { name: 'desktop', options: { viewport: DESKTOP } },
  { name: 'phone', options: { viewport: PHONE, isMobile: true, hasTouch: true } },
] as const satisfies readonly { name: string; options: BrowserContextOptions }[];

/** Opens `/` (or `path`) and waits until the page has rendered its heading and, with JavaScript, React has hydrated it. */
export async function visit(
  browser: Browser,
  server: RunningServer,
  options: BrowserContextOptions,
  path = '/',
): Promise<WatchedPage> {
  const watched = await openPage(browser, server, options);
  await watched.page.goto(server.url + path);
  await watched.page.getByRole('heading', { level: 1 }).waitFor();
  if (options.javaScriptEnabled !== false) await hydrated(watched.page);
  return watched;
}

/**
 * Resolves once React has taken over the page: `/` arrives drawn and is hydrated only after its
 * first screen is painted, so a click before then would meet markup without its handlers.
 * React puts its container key on #root and its fiber on every section it hydrated.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    // No named inner function: the test runner's transform would wrap it in a helper the page lacks.
    () =>
      [document.getElementById('root'), ...document.querySelectorAll('section[id]')].every(
        (element) => !!element && Object.keys(element).some((key) => key.startsWith('__react')),
      ),
    undefined,
    { timeout: 15_000 },
  );
}

/** Resolves after the page's next two frames: what the coming frame does (a section drawn, a transition's event) has been done. */
export async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Resolves once `selector`'s element is drawn (or, with `drawn` false, left for later) by the
 * `content-visibility: auto` of the landing's section around it, however busy the machine: the
 * sections after the first screen are drawn in a frame after they come near it.
 */
export async function drawnState(page: Page, selector: string, drawn = true): Promise<void> {
  await page.waitForFunction(
    ([what, want]) => document.querySelector(what as string)!.checkVisibility({ contentVisibilityAuto: true }) === want,
    [selector, drawn] as const,
  );
}

/** Resolves once the page's web font has come (a first view fetches it once painted, for the next page). */
export async function fontFetched(page: Page): Promise<void> {
  await page.waitForFunction(
    () => performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('.woff2') && (entry as PerformanceResourceTiming).responseEnd > 0),
    undefined,
    { timeout: 60_000 },
  );
}

/** Scrolls through the whole page so every lazily loaded image is requested, then back to the top. */
export async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const step = Math.max(200, Math.floor(window.innerHeight / 2));
    for (let y = 0; y <= document.documentElement.scrollHeight; y += step) {
      window.scrollTo({ top: y, behavior: 'instant' });
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

/** Resolves once `id`'s section has been scrolled to just below the fixed navigation. */
export async function waitUntilScrolledTo(page: Page, id: string): Promise<void> {
  await page.waitForFunction(
    (target) => {
      const section = document.getElementById(target);
      if (!section) return false;
      const top = section.getBoundingClientRect().top;
      const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
      // The navigation is 64 px high and anchors stop 72 px below the top (scroll-padding-top).
      return (top >= 0 && top <= 80) || (atBottom && top >= 0 && top < window.innerHeight);
    },
    id,
    { timeout: 5_000 },
  );
}

/** The text of whatever element has keyboard focus. */
export function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
}

/** `url`'s HTML as the server sends it to a browser that takes Brotli: its encoding and its bytes on the wire. */
export function sentWithBrotli(url: string): Promise<{ encoding: string | undefined; bytes: number }> {
  return new Promise((resolvePromise, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'br, gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolvePromise({ encoding: response.headers['content-encoding'], bytes }));
    }).on('error', reject);
  });
}

/**
 * `url`'s bytes with Brotli once they are within `budget`, or the last size after a minute. A
 * publish serves its pages compressed quickly at once and at Brotli's best a moment later (one
 * page after another on a thread of the server's own, which a loaded machine slows): the budget
 * is for the page as it stays, so this waits for that, and fails only if it never comes.
 */
export async function settledBrotliBytes(url: string, budget: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { encoding, bytes } = await sentWithBrotli(url);
    assert.equal(encoding, 'br', `${url} is sent with Brotli`);
    if (bytes <= budget || Date.now() > deadline) return bytes;
    await new Promise((resolveDelay) => setTimeout(resolveDelay, 200));
  }
}

/** The faces the browser drew an element's text with, and how many glyphs each drew (Chromium's own account). */
export async function drawnWith(page: Page, selector: string): Promise<{ familyName: string; glyphCount: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    assert.ok(nodeId, `${selector} is on the page`);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map(({ familyName, glyphCount }) => ({ familyName, glyphCount }));
  } finally {
    await cdp.detach();
  }
}

/** WCAG contrast ratio of two `rgb()` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
