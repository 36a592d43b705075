/** Shared set-up for the landing page's browser tests (page*.test.ts). */
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
