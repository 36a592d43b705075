/**
 * Browser tests of posts counted like the page: a visitor reads a post at `/writing/<slug>/` and
 * the owner's Insights tab counts one view for it, its title linked to its address; a reader who
 * came through an application link opens a post from the link's page (its Writing section), then
 * another through the writing's index, and the link's figures name both ("Read the posts …"). The
 * link is carried to the writing's pages in their address (`?via=<slug>`), never in the visitor's
 * browser. The test browser is headless, which the server does not count, so each visitor sets a
 * desktop User-Agent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, OWNER_ENV, ownerCookie, publishPost, signIn } from './helpers.ts';
import { hydrated } from './page-support.ts';

interface PostCount {
  post: string;
  title: string | null;
  path: string | null;
  count: number;
}
interface Figures {
  totals: { pageViews: number };
  posts: PostCount[];
  caseStudies: unknown[];
}
interface Link {
  id: number;
  path: string;
  state: string;
  totals: { opens: number; sections: Record<string, number>; caseStudies: unknown[]; posts: PostCount[] };
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

const count = (counts: PostCount[], post: string) => counts.find((c) => c.post === post)?.count ?? 0;

/** The visitor's browser holds nothing of ours: no cookie, no storage. */
async function assertNothingStored(page: Page): Promise<void> {
  assert.deepEqual(await page.context().cookies(), []);
  assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);
}

/** Follows `anchor` (a link of the page) to the post `id`'s page, hydrated; the address it reached. */
async function follow(page: Page, anchor: ReturnType<Page['locator']>, id: string, path: string): Promise<URL> {
  await anchor.click();
  await page.waitForURL((url) => url.pathname === path);
  await page.locator(`article[data-post="${id}"]`).waitFor();
  await hydrated(page);
  return new URL(page.url());
}

describe('posts counted like the page', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test("a visit to a post's page is one view of it in the owner's insights, its title linked to its address", async () => {
    const post = await publishPost(suite.server, 'Hello, World!');
    assert.equal(post.path, '/writing/hello-world/');
    const cookie = await ownerCookie(suite.server);
    const visitor = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    await visitor.page.goto(suite.server.url + post.path);
    await visitor.page.locator(`article[data-post="${post.id}"]`).waitFor();
    await hydrated(visitor.page);
    const counted = await when(
      "the post's view",
      () => figures(suite.server, cookie),
      (f) => count(f.posts, post.id) >= 1,
    );
    assert.deepEqual(counted.posts, [{ post: post.id, title: 'Hello, World!', path: post.path, count: 1 }]);
    assert.deepEqual(counted.caseStudies, [], 'a post is no case study');
    assert.ok(counted.totals.pageViews >= 1, 'a post is a page view too');
    await assertNothingStored(visitor.page);
    assert.deepEqual(visitor.errors, []);
    assert.deepEqual(visitor.foreignRequests, []);
    await visitor.close();

    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=insights`);
    const list = page.getByRole('region', { name: 'Posts' });
    const row = list.getByRole('row', { name: /Hello, World!/ });
    await row.waitFor();
    assert.deepEqual((await row.locator('th, td').allTextContents()).map((t) => t.trim()), ['Hello, World!', '1']);
    assert.equal(await row.getByRole('link', { name: 'Hello, World!' }).getAttribute('href'), post.path);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test("a reader through an application link reads a post from the link's page and another through the index, and the link's figures name both", async () => {
    const second = await publishPost(suite.server, 'Second thoughts');
    const cookie = await ownerCookie(suite.server);
    const made = await fetch(`${suite.server.url}/api/links`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: suite.server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ company: 'Acme', role: 'Frontend Developer' }),
    });
    assert.equal(made.status, 201);
    const { id, slug, path } = (await made.json()) as { id: number; slug: string; path: string };

    const visitor = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    const { page: reader } = visitor;
    await reader.goto(suite.server.url + path);
    await hydrated(reader);
    await reader.locator('#writing').scrollIntoViewIfNeeded();
    await when('the open', () => link(suite.server, cookie, id), (l) => l.totals.opens === 1);

    // From the link's page: the Writing section's card of the first post.
    const first = await follow(reader, reader.locator('#writing a[href="/writing/hello-world/"]'), 'hello-world', '/writing/hello-world/');
    assert.equal(first.searchParams.get('via'), slug, 'the link goes along in the address');
    // A person is there: they press a key (at each poll, so that one comes after the page's
    // counting has started).
    await when(
      "the link's first post",
      () => link(suite.server, cookie, id),
      (l) => count(l.totals.posts, 'hello-world') === 1,
      () => reader.keyboard.press('Shift'),
    );

    // Through the index: the breadcrumbs' Writing, then the second post's entry.
    await reader.locator('main a[href="/writing/"]').first().click();
    await reader.waitForURL((url) => url.pathname === '/writing/');
    assert.equal(new URL(reader.url()).searchParams.get('via'), slug, 'the index carries the link along');
    await reader.locator('main[data-writing]').waitFor();
    await hydrated(reader);
    // The visit's chunk is loaded after hydration: a probe's click, kept from leaving, shows when
    // the link is carried.
    await reader.waitForFunction(
      () => {
        const probe = document.createElement('a');
        probe.href = '/writing/probe/';
        probe.addEventListener('click', (event) => event.preventDefault());
        document.body.append(probe);
        probe.click();
        probe.remove();
        return probe.search.includes('via=');
      },
      undefined,
      { timeout: 15_000 },
    );
    const entry = reader.locator(`main a[href="${second.path}"]`).first();
    const read = await follow(reader, entry, second.id, second.path);
    assert.equal(read.searchParams.get('via'), slug);
    const counted = await when(
      "the link's second post",
      () => link(suite.server, cookie, id),
      (l) => count(l.totals.posts, second.id) === 1,
      () => reader.keyboard.press('Shift'),
    );
    assert.deepEqual(counted.totals.posts, [
      { post: 'hello-world', title: 'Hello, World!', path: '/writing/hello-world/', count: 1 },
      { post: second.id, title: 'Second thoughts', path: second.path, count: 1 },
    ]);
    assert.deepEqual(counted.totals.caseStudies, []);
    assert.equal(counted.totals.opens, 1, 'a post is no second open');
    assert.equal(counted.state, 'engaged');
    await assertNothingStored(reader);
    assert.deepEqual(visitor.errors, []);
    assert.deepEqual(visitor.foreignRequests, []);
    await visitor.close();

    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=applications`);
    const item = page.getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' });
    await item.getByText('Read the posts “Hello, World!” and “Second thoughts”.').waitFor();
    await item.getByRole('button', { name: 'Details' }).click();
    const posts = item.getByRole('list', { name: 'Posts read' });
    await posts.waitFor();
    assert.deepEqual((await posts.getByRole('listitem').allTextContents()).map((t) => t.trim()), ['Hello, World!: 1', 'Second thoughts: 1']);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});
