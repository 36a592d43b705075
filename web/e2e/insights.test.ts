/**
 * Browser tests of visitor insights: what the landing page's beacon counts, what it never does,
 * and the owner's Insights tab. The test browser is headless, which the server does not count,
 * so each visitor here sets an ordinary desktop User-Agent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, DESKTOP_CHROME, OWNER_ENV, ownerCookie, signIn } from './helpers.ts';

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
  const response = await fetch(`${server.url}/api/insights?days=7`, { headers: { Cookie: await ownerCookie(server) } });
  assert.equal(response.status, 200);
  return (await response.json()) as Figures;
}

/**
 * Waits until the figures satisfy `ready`: the beacon is sent without waiting for its answer, and
 * the server writes its counts every 5 seconds, later on a loaded machine (a minute at most).
 */
async function figuresWhen(server: RunningServer, ready: (f: Figures) => boolean): Promise<Figures> {
  let last: Figures | undefined;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    last = await figures(server);
    if (ready(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the figures never got there: ${JSON.stringify(last?.totals)} ${JSON.stringify(last?.clicks)}`);
}

/**
 * Loads `/` and waits until the page has settled: its beacon answered, when the page sends one
 * (`counted`). The beacon waits for the hydration, which on a loaded machine can come more than
 * the half second of quiet network that `networkidle` means: leaving then would lose the view.
 */
async function visitHome(page: Page, server: RunningServer, search = '', counted = true): Promise<void> {
  const beacon = counted
    ? page.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/events', { timeout: 60_000 })
    : undefined;
  await page.goto(server.url + '/' + search);
  await page.waitForLoadState('networkidle');
  // A page that sends none is hydrated too, so that a beacon it wrongly sent would be seen.
  await (beacon ?? hydrated(page));
}

/** Clicks stay on the page: the links open other sites, which tests never reach. */
async function keepClicksHere(page: Page): Promise<void> {
  await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()));
}

describe('visitor insights on the landing page', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('three page views by one visitor are three views and one visitor; another browser is another visitor', async () => {
    const first = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    for (let i = 0; i < 3; i += 1) await visitHome(first.page, suite.server);
    let f = await figuresWhen(suite.server, (f) => f.totals.pageViews >= 3);
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

    const second = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_FIREFOX });
    await visitHome(second.page, suite.server);
    f = await figuresWhen(suite.server, (f) => f.totals.pageViews >= 4);
    assert.equal(f.totals.pageViews, 4);
    assert.equal(f.totals.visitors, 2);
    await second.close();
  });

  test('a visitor who sends DNT: 1 sends nothing', async () => {
    const before = await figures(suite.server);
    const { page, close } = await openPage(suite.browser, suite.server, {
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
    await visitHome(page, suite.server, '', false);
    await keepClicksHere(page);
    await page.getByRole('link', { name: 'Code of Portfolio (opens in a new tab)' }).click();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(beacons, []);
    const after = await figures(suite.server);
    assert.equal(after.totals.pageViews, before.totals.pageViews);
    assert.deepEqual(after.clicks, before.clicks);
    await close();
  });

  test('a visitor who leaves before the page is hydrated is counted all the same', async () => {
    const before = await figures(suite.server);
    const { page, errors, close } = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    // The hydration's code held back, as a slow phone's network would: the view waits for it.
    await page.route(/\/assets\/hydrate-landing-[^/]+\.js$/, () => {});
    const beacons: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/insights/events') beacons.push(request.url());
    });
    // Its request, held, is made once the entry has run (and the beacon's listeners are set).
    const asked = page.waitForRequest(/\/assets\/hydrate-landing-[^/]+\.js$/, { timeout: 60_000 });
    await page.goto(suite.server.url + '/');
    await asked;
    assert.deepEqual(beacons, [], 'nothing is sent while the page is shown and not hydrated');
    assert.deepEqual(errors, []);

    // The visitor closes the tab: the page is hidden, and its view is sent then. (Closed, not left
    // for another address: a beacon sent as the test browser navigates names it headless, which is
    // not counted, whatever the page's User-Agent says.)
    await page.close();
    const f = await figuresWhen(suite.server, (f) => f.totals.pageViews > before.totals.pageViews);
    assert.equal(f.totals.pageViews, before.totals.pageViews + 1, 'one view');
    await close();
  });

  test('a resume download and a project link click are counted', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, {
      userAgent: DESKTOP_CHROME,
      acceptDownloads: true,
    });
    await visitHome(page, suite.server);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download Resume' }).first().click();
    assert.equal((await download).suggestedFilename(), 'resume.pdf');
    await keepClicksHere(page);
    await page.getByRole('link', { name: 'Code of Portfolio (opens in a new tab)' }).click();
    await page.getByRole('link', { name: 'Live demo of Food Recipes (opens in a new tab)' }).click();
    const f = await figuresWhen(suite.server, (f) => f.totals.resumeDownloads >= 1 && f.clicks.length >= 2);
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

describe("the owner's Insights tab", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('shows the figures as a chart and a table, the top lists and a CSV export, and axe finds nothing', async () => {
    // Two visitors, one from a LinkedIn campaign; a click and a resume download.
    const visitor = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    await visitHome(visitor.page, suite.server, '?utm_source=linkedin&utm_medium=social&utm_campaign=spring');
    await visitHome(visitor.page, suite.server);
    await keepClicksHere(visitor.page);
    await visitor.page.getByRole('link', { name: 'Code of Portfolio (opens in a new tab)' }).click();
    // Its beacon arrives before the browser is closed (closing it can drop a beacon in flight).
    await figuresWhen(suite.server, (f) => f.clicks.length >= 1);
    await visitor.close();
    const other = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_FIREFOX });
    await visitHome(other.page, suite.server);
    await other.close();
    const resume = await fetch(`${suite.server.url}/resume.pdf`, { headers: { 'User-Agent': DESKTOP_CHROME } });
    assert.equal(resume.status, 200);
    await figuresWhen(suite.server, (f) => f.totals.pageViews >= 3 && f.clicks.length >= 1);

    const { page, errors, close } = await openPage(suite.browser, suite.server, { acceptDownloads: true });
    await signIn(page, suite.server);
    await page.getByRole('tab', { name: 'Insights' }).click();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Insights' }).getAttribute('aria-selected'), 'true');

    const card = (label: string) =>
      page.locator('dl > div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd');
    assert.equal(await card('Visitors').textContent(), '2');
    assert.equal(await card('Page views').textContent(), '3');
    assert.equal(await card('Resume downloads').textContent(), '1');
    assert.ok(await page.getByRole('img', { name: /Chart of page views and visitors per day/ }).isVisible());

    const daily = page.getByRole('region', { name: 'Daily figures' }).getByRole('table');
    assert.equal(await daily.getByRole('row').count(), 8, 'a header row and 7 days');
    const todayRow = daily.getByRole('row').nth(1);
    assert.deepEqual(
      (await todayRow.getByRole('cell').allTextContents()).map((t) => t.trim()),
      ['2', '3', '1', '0'],
    );
    const list = (name: string) => page.getByRole('region', { name });
    assert.match((await list('Campaigns').textContent()) ?? '', /linkedin \/ social \/ spring\s*1/);
    assert.match((await list('Clicks per project and link').textContent()) ?? '', /Portfolio: code\s*1/);
    assert.match((await list('Browsers').textContent()) ?? '', /Chrome/);

    await page.getByRole('button', { name: '30 days' }).click();
    await page.getByRole('heading', { name: 'Visitors and page views, last 30 days' }).waitFor();
    // The heading follows the button at once; the table follows the figures once they arrive.
    await daily.getByRole('row').nth(30).waitFor();
    assert.equal(await daily.getByRole('row').count(), 31);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download figures as CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8').split('\r\n');
    assert.equal(csv[0], 'day,visitors,page_views,resume_downloads,messages');
    assert.equal(csv.filter((line) => line).length, 31);
    assert.match(csv[30] ?? '', /,2,3,1,0$/);

    assert.deepEqual(await axeViolations(page), []);
    // The tabs follow the keyboard back to the applications, then the inbox.
    await page.getByRole('tab', { name: 'Insights' }).press('ArrowLeft');
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Applications' }).press('ArrowLeft');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.deepEqual(errors, []);
    await close();
  });

  test("the chart's labels stay legible on a phone: at least 12 px at 390 px wide, two on each axis", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=insights`);
    const chart = page.getByRole('img', { name: /Chart of page views and visitors per day/ });
    await chart.waitFor();
    const figure = page.locator('figure').filter({ has: chart });
    const labels = await figure.locator('[aria-hidden="true"] > span').evaluateAll((spans) =>
      spans.map((span) => ({ text: span.textContent, size: parseFloat(getComputedStyle(span).fontSize), height: span.getBoundingClientRect().height })),
    );
    assert.equal(labels.length, 4, `the top and zero of the scale, the first and last day: ${JSON.stringify(labels)}`);
    for (const label of labels) assert.ok(label.size >= 12 && label.height >= 12, JSON.stringify(label));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scroll');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});
