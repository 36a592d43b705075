/**
 * Browser tests of case studies counted like the page: a visitor reads the placeholder's case study
 * of Portfolio at `/projects/portfolio/` and the owner's Insights tab counts one visit for it; a
 * reader who came through an application link opens the Food Recipes card's "Read the case study"
 * and the link's figures name it ("Read the case study of Food Recipes"). The link is carried to
 * the case study's page in its address (`?via=<slug>`), never in the visitor's browser. The test
 * browser is headless, which the server does not count, so each visitor sets a desktop User-Agent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, OWNER_ENV, ownerCookie, signIn } from './helpers.ts';
import { hydrated } from './page-support.ts';

interface CaseStudyCount {
  project: string;
  title: string | null;
  count: number;
}
interface Figures {
  totals: { pageViews: number };
  caseStudies: CaseStudyCount[];
}
interface Link {
  id: number;
  path: string;
  state: string;
  totals: { opens: number; sections: Record<string, number>; caseStudies: CaseStudyCount[] };
}

/** Polls `read` until `ready` holds of what it gives (beacons are sent without waiting for their answers). */
async function when<T>(what: string, read: () => Promise<T>, ready: (value: T) => boolean, nudge?: () => Promise<void>): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 200; i += 1) {
    await nudge?.();
    last = await read();
    if (ready(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${what} never got there: ${JSON.stringify(last)}`);
}

async function figures(server: RunningServer, cookie: string): Promise<Figures> {
  const response = await fetch(`${server.url}/api/insights?days=7`, { headers: { Cookie: cookie } });
  assert.equal(response.status, 200);
  return (await response.json()) as Figures;
}

async function link(server: RunningServer, cookie: string, id: number): Promise<Link> {
  const response = await fetch(`${server.url}/api/links/${id}`, { headers: { Cookie: cookie } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { link: Link }).link;
}

const count = (counts: CaseStudyCount[], project: string) => counts.find((c) => c.project === project)?.count ?? 0;

/** The visitor's browser holds nothing of ours: no cookie, no storage. */
async function assertNothingStored(page: Page): Promise<void> {
  assert.deepEqual(await page.context().cookies(), []);
  assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);
}

describe('case studies counted like the page', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test("a visit to a case study's page is one visit for it in the owner's insights", async () => {
    const cookie = await ownerCookie(suite.server);
    const visitor = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    await visitor.page.goto(`${suite.server.url}/projects/portfolio/`);
    await visitor.page.locator('article[data-case-study="portfolio"]').waitFor();
    await hydrated(visitor.page);
    const counted = await when(
      "the case study's visit",
      () => figures(suite.server, cookie),
      (f) => count(f.caseStudies, 'portfolio') >= 1,
    );
    assert.deepEqual(counted.caseStudies, [{ project: 'portfolio', title: 'Portfolio', count: 1 }]);
    assert.ok(counted.totals.pageViews >= 1, 'a case study is a page view too');
    await assertNothingStored(visitor.page);
    assert.deepEqual(visitor.errors, []);
    assert.deepEqual(visitor.foreignRequests, []);
    await visitor.close();

    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=insights`);
    const list = page.getByRole('region', { name: 'Case studies' });
    await list.getByRole('row', { name: /Portfolio/ }).waitFor();
    assert.deepEqual(
      (await list.getByRole('row', { name: /Portfolio/ }).locator('th, td').allTextContents()).map((t) => t.trim()),
      ['Portfolio', '1'],
    );
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test('a reader through an application link opens a card\'s "Read the case study", and the link\'s figures name it', async () => {
    const cookie = await ownerCookie(suite.server);
    const made = await fetch(`${suite.server.url}/api/links`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: suite.server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ company: 'Acme', role: 'Frontend Developer' }),
    });
    assert.equal(made.status, 201);
    const { id, slug, path } = (await made.json()) as { id: number; slug: string; path: string };

    const visitor = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    await visitor.page.goto(suite.server.url + path);
    await hydrated(visitor.page);
    await visitor.page.locator('#projects').scrollIntoViewIfNeeded();
    await when('the open', () => link(suite.server, cookie, id), (l) => l.totals.opens === 1);

    const read = visitor.page
      .locator(`#projects a[href*="/projects/food-recipes/"]`)
      .filter({ hasText: /Read the case study/ })
      .first();
    await read.click();
    await visitor.page.waitForURL((url) => url.pathname.endsWith('/projects/food-recipes/'));
    assert.equal(new URL(visitor.page.url()).searchParams.get('via'), slug, 'the link goes along in the address');
    await visitor.page.locator('article[data-case-study="food-recipes"]').waitFor();
    await hydrated(visitor.page);
    // A person is there: they press a key (at each poll, so that one comes after the page's
    // counting has started).
    const counted = await when(
      "the link's case study",
      () => link(suite.server, cookie, id),
      (l) => count(l.totals.caseStudies, 'food-recipes') === 1,
      () => visitor.page.keyboard.press('Shift'),
    );
    assert.deepEqual(counted.totals.caseStudies, [{ project: 'food-recipes', title: 'Food Recipes', count: 1 }]);
    assert.equal(counted.totals.opens, 1, 'the case study is no second open');
    assert.equal(counted.state, 'engaged');
    await assertNothingStored(visitor.page);
    assert.deepEqual(visitor.errors, []);
    assert.deepEqual(visitor.foreignRequests, []);
    await visitor.close();

    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=applications`);
    const item = page.getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' });
    await item.getByText('Read the case study of Food Recipes.').waitFor();
    await item.getByRole('button', { name: 'Details' }).click();
    await item.getByRole('list', { name: 'Case studies read' }).getByText('Food Recipes: 1').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});
