/**
 * Browser tests of visitor insights: what the landing page's beacon counts, what it never does,
 * and the owner's Insights tab. The test browser is headless, which the server does not count,
 * so each visitor here sets an ordinary desktop User-Agent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';

const EMAIL = 'owner@example.com';
const PASSWORD = 'violet-harbour-lantern-42';
export const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const DESKTOP_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';

interface KeyCount {
  key: string;
  count: number;
}
interface Figures {
  days: { day: string; pageViews: number; visitors: number; resumeDownloads: number; messages: number }[];
  totals: { pageViews: number; visitors: number; resumeDownloads: number };
  clicks: KeyCount[];
}

/** The owner's figures for the last 7 days, through the API with the owner's session. */
async function figures(server: RunningServer): Promise<Figures> {
  const signIn = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  assert.equal(signIn.status, 200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const response = await fetch(`${server.url}/api/insights?days=7`, { headers: { Cookie: cookie } });
  assert.equal(response.status, 200);
  return (await response.json()) as Figures;
}

/** Waits until the figures satisfy `ready` (the beacon is sent without waiting for its answer). */
async function figuresWhen(server: RunningServer, ready: (f: Figures) => boolean): Promise<Figures> {
  let last: Figures | undefined;
  for (let i = 0; i < 50; i += 1) {
    last = await figures(server);
    if (ready(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the figures never got there: ${JSON.stringify(last?.totals)} ${JSON.stringify(last?.clicks)}`);
}

/** Loads `/` and waits until the page has settled (its beacon sent). */
async function visitHome(page: Page, server: RunningServer, search = ''): Promise<void> {
  await page.goto(server.url + '/' + search);
  await page.waitForLoadState('networkidle');
}

/** Clicks stay on the page: the links open other sites, which tests never reach. */
async function keepClicksHere(page: Page): Promise<void> {
  await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()));
}

describe('visitor insights on the landing page', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { PORTFOLIO_OWNER_EMAIL: EMAIL, PORTFOLIO_OWNER_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('three page views by one visitor are three views and one visitor; another browser is another visitor', async () => {
    const first = await openPage(browser, server, { userAgent: DESKTOP_CHROME });
    for (let i = 0; i < 3; i += 1) await visitHome(first.page, server);
    let f = await figuresWhen(server, (f) => f.totals.pageViews >= 3);
    assert.equal(f.totals.pageViews, 3);
    assert.equal(f.totals.visitors, 1);
    assert.deepEqual(first.errors, []);
    assert.deepEqual(first.foreignRequests, []);

    // The visitor's browser holds nothing of ours: no cookie, no storage.
    const context: BrowserContext = first.page.context();
    assert.deepEqual(await context.cookies(), []);
    const stored = await first.page.evaluate(async () => ({
      local: localStorage.length,
      session: sessionStorage.length,
      databases: (await indexedDB.databases()).length,
      caches: (await caches.keys()).length,
    }));
    assert.deepEqual(stored, { local: 0, session: 0, databases: 0, caches: 0 });
    await first.close();

    const second = await openPage(browser, server, { userAgent: DESKTOP_FIREFOX });
    await visitHome(second.page, server);
    f = await figuresWhen(server, (f) => f.totals.pageViews >= 4);
    assert.equal(f.totals.pageViews, 4);
    assert.equal(f.totals.visitors, 2);
    await second.close();
  });

  test('a visitor who sends DNT: 1 sends nothing', async () => {
    const before = await figures(server);
    const { page, close } = await openPage(browser, server, {
      userAgent: DESKTOP_CHROME,
      extraHTTPHeaders: { DNT: '1' },
    });
    // As a string: the test runner's compiler would wrap a function in helpers the page lacks.
    await page.addInitScript({
      content: "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: function () { return '1'; } });",
    });
    const beacons: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/insights')) beacons.push(request.url());
    });
    await visitHome(page, server);
    await keepClicksHere(page);
    await page.getByRole('link', { name: 'Code of Portfolio (opens in a new tab)' }).click();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(beacons, []);
    const after = await figures(server);
    assert.equal(after.totals.pageViews, before.totals.pageViews);
    assert.deepEqual(after.clicks, before.clicks);
    await close();
  });

  test('a resume download and a project link click are counted', async () => {
    const { page, errors, close } = await openPage(browser, server, {
      userAgent: DESKTOP_CHROME,
      acceptDownloads: true,
    });
    await visitHome(page, server);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download Resume' }).first().click();
    assert.equal((await download).suggestedFilename(), 'resume.pdf');
    await keepClicksHere(page);
    await page.getByRole('link', { name: 'Code of Portfolio (opens in a new tab)' }).click();
    await page.getByRole('link', { name: 'Live demo of Food Recipes (opens in a new tab)' }).click();
    const f = await figuresWhen(server, (f) => f.totals.resumeDownloads >= 1 && f.clicks.length >= 2);
    assert.equal(f.totals.resumeDownloads, 1);
    assert.deepEqual(
      f.clicks.map((c) => [c.key, c.count]).sort(),
      [
        ['project:food-recipes:demo', 1],
        ['project:portfolio:code', 1],
      ],
    );
    assert.deepEqual(errors, []);
    await close();
  });
});
