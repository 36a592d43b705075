/**
 * Browser tests of the dashboard's Writing tab against the real server: the owner begins a post,
 * writes its text with a fenced Rust block, a table and an image pasted from the clipboard, sees
 * the server's rendering of it beside the text (the code highlighted, the table drawn) and a
 * refused line beside the text, publishes it and finds it at /writing/<slug>/; schedules a second
 * post a minute ahead, which the list says and which no address shows until its moment (the
 * server's clock then moved past it, by starting it again on its database); a visitor
 * reads the first on a phone and a laptop in both schemes, and the home page's Writing section
 * lists it. The owner unpublishes a live post from its editor (asked first): its address answers
 * 404 until it is published again. Where the home page's header has its Writing item, a case
 * study's page and the error page have it too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, openPage, restartable, type RunningServer, type Suite } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, publishDraft, publishPost, signIn } from './helpers.ts';
import { freePort } from './receivers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

const TITLE = 'Parsing logs with Rust';
const SLUG = 'parsing-logs-with-rust';
const LATER = 'Notes for later';

/**
 * The text as written: a paragraph, the pasted image goes after it; then code and a table, each
 * narrower than a phone's screen and the table's columns unaligned (the test at the end has a wide
 * block and an aligned column, which the server does not write well yet).
 */
const INTRO = 'A small tool that reads a service log and counts its levels.';
const BODY = `${INTRO}

\`\`\`rust
fn main() {
    let line = "WARN disk almost full";
    println!("{line}");
}
\`\`\`

| Level | Count |
|-------|-------|
| WARN  | 12    |
| ERROR | 3     |

That is all it does.
`;

/** axe over the dashboard, the preview (the post's page in a frame, checked below as a visitor sees it) left out. */
function editorViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { exclude: 'iframe' });
}

/** A PNG of `width`×`height` with a pattern of its own. */
function png(width: number, height: number, seed: number): Buffer {
  const pixels = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * seed) % 256));
  return Buffer.from(encodePng(pixels, width, height) as Uint8Array);
}

/** Waits for the post's save status to say everything is saved (a save's round trip; generous for a loaded machine). */
async function allSaved(bar: Locator) {
  await bar.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 60_000 });
}

/** The status of `path` on the server, asked until it is `status` (the server shows a publish within the two-second look of each instance). */
async function answers(server: RunningServer, path: string, status: number, timeout = 60_000): Promise<void> {
  const until = Date.now() + timeout;
  let last = 0;
  while (Date.now() < until) {
    last = (await fetch(server.url + path, { redirect: 'manual' })).status;
    if (last === status) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${path} answered ${last}, not ${status}, within ${timeout} ms`);
}

/** Begins a post from the Writing tab's form and waits for its editor, whose heading has the focus. */
async function begin(page: Page, title: string): Promise<Locator> {
  const form = page.getByRole('form', { name: 'New post' });
  await form.getByLabel('Title', { exact: true }).fill(title);
  await form.getByRole('button', { name: 'Create the post' }).click();
  await page.getByRole('heading', { level: 1, name: `Post: ${title}` }).waitFor();
  await page.waitForFunction(() => document.activeElement?.id === 'post-heading');
  return page.getByRole('region', { name: 'Draft and live post' });
}

/** The addresses the header of `html` (a page as the server sends it) links to. */
function headerLinks(html: string): string[] {
  return [...(/<header[^]*?<\/header>/.exec(html)?.[0] ?? '').matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
}

/** The header's Writing item, wherever the header's width puts it (in the row, or in the menu). */
const writingItem = (page: Page) => page.locator('header nav li a', { hasText: /^Writing$/ });

/** Publishes `project`'s case study as its draft is (the placeholder's, on a fresh server), as the editor does. */
async function publishStudy(server: RunningServer, project: string): Promise<void> {
  const headers = { Cookie: await ownerCookie(server), 'Content-Type': 'application/json', Origin: server.url };
  const path = `${server.url}/api/content/case-studies/${project}`;
  const draft = (await (await fetch(`${path}/draft`, { headers })).json()) as { revision: number; document: unknown };
  const put = await fetch(`${path}/draft`, { method: 'PUT', headers: { ...headers, 'If-Match': `"${draft.revision}"` }, body: JSON.stringify(draft.document) });
  assert.equal(put.status, 200, await put.text());
  const published = await fetch(`${path}/publish`, { method: 'POST', headers });
  assert.equal(published.status, 200, await published.text());
}

/** Shows or hides the home page's Writing section (Sections shown), and waits until `/`'s header has its item or not. */
async function showWriting(server: RunningServer, shown: boolean): Promise<void> {
  await publishDraft(
    server,
    (document) => void ((document.appearance as { sections: Record<string, boolean> }).sections.writing = shown),
    async () => headerLinks(await (await fetch(`${server.url}/`)).text()).includes('/writing/') === shown,
  );
}

describe('the Writing tab', () => {
  // A server the first test starts again on its database with its clock moved past a scheduled
  // moment, rather than waiting for it.
  const suite = {} as Suite;
  let servers: ReturnType<typeof restartable>;
  before(async () => {
    servers = restartable({ port: await freePort(), args: [], env: OWNER_ENV });
    suite.server = await servers.start(0);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await servers?.stop();
  });
  /** The moment the first test scheduled its second post for (the last test moves the clock past it). */
  let scheduledMoment = 0;

  test('the owner writes a post with code, a table and a pasted image, publishes it, schedules another, and a visitor reads the first on a phone and a laptop', async () => {
    // The owner's browser in the server's time zone (UTC, its default): a scheduled moment is typed as the owner reads the clock.
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP, timezoneId: 'UTC' });
    // The owner's device is ten minutes fast: what is scheduled and what is live is still told by
    // the server's clock, as its answers' Date headers give it, not the device's.
    await page.clock.setSystemTime(Date.now() + 10 * 60_000);
    await signIn(page, suite.server);
    await page.getByRole('tab', { name: 'Writing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Writing' }).waitFor();
    await page.getByText('No posts yet: give the first one a title above.').waitFor();
    assert.deepEqual(await editorViolations(page), []);

    // A new post: its address is made from the title, its text a line to write over.
    const bar = await begin(page, TITLE);
    await page.waitForURL(/[?&]view=writing&post=parsing-logs-with-rust$/);
    await bar.getByText('Not published yet').waitFor();
    const address = page.getByLabel('Address', { exact: true });
    assert.equal(await address.inputValue(), SLUG);
    await page.getByText(`Shown at /writing/${SLUG}/.`, { exact: false }).waitFor();
    await page.getByLabel('Summary', { exact: true }).fill('Counting the levels of a service log in forty lines.');
    const tags = page.getByRole('group', { name: 'Tags' });
    for (const tag of ['Rust', 'Tooling']) {
      await tags.getByLabel('Add a tag', { exact: true }).fill(tag);
      await tags.getByLabel('Add a tag', { exact: true }).press('Enter');
      await tags.getByRole('button', { name: `Remove the tag ${tag}` }).waitFor();
    }

    // The text, then an image pasted after its first paragraph: uploaded, added at the cursor, its description selected.
    const text = page.getByLabel('Text, in Markdown', { exact: true });
    await text.fill(BODY);
    await text.evaluate((area: HTMLTextAreaElement, at) => area.setSelectionRange(at, at), INTRO.length);
    await text.evaluate((area: HTMLTextAreaElement, bytes) => {
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, [...png(800, 450, 7)]);
    await page.getByRole('status').filter({ hasText: 'Image added at the cursor. Its description is selected: type what it shows.' }).waitFor({ timeout: 60_000 });
    assert.equal(await text.evaluate((area: HTMLTextAreaElement) => area.value.slice(area.selectionStart, area.selectionEnd)), 'Describe the image');
    await page.keyboard.type('A bar chart of warnings and errors');
    const written = await text.inputValue();
    assert.match(written, new RegExp(`^${INTRO}\\n\\n!\\[A bar chart of warnings and errors\\]\\(/media/[0-9a-f]+-\\d+\\.webp\\)\\n\\n\`\`\`rust\\n`));
    await allSaved(bar);
    assert.deepEqual(await editorViolations(page), []);

    // The preview beside the text is the server's rendering of the saved draft: the code highlighted, the table, the image.
    const preview = page.frameLocator('iframe[title^="Preview of the draft"]');
    const code = preview.locator('pre.code code.language-rust');
    await code.locator('span[class*="hl-"]').first().waitFor({ timeout: 60_000 });
    assert.ok((await code.locator('span[class*="hl-"]').count()) > 3, 'the Rust is highlighted');
    assert.deepEqual(await preview.locator('table th').allInnerTexts(), ['Level', 'Count']);
    assert.equal(await preview.locator('table tbody tr').count(), 2);
    await preview.getByRole('img', { name: 'A bar chart of warnings and errors' }).waitFor();
    await preview.getByRole('heading', { level: 1, name: TITLE }).waitFor();

    // A line the server refuses (raw HTML) is named beside the text, with its line; fixed, the draft saves.
    await text.fill(`${written}\n<b>bold</b>\n`);
    const refused = page.getByText(/^Line \d+: HTML is not taken in a post/);
    await refused.waitFor({ timeout: 60_000 });
    assert.equal(await text.getAttribute('aria-invalid'), 'true');
    assert.match((await text.getAttribute('aria-describedby')) ?? '', /field-body-error/);
    await bar.getByRole('status').filter({ hasText: 'Not saved: one field needs attention' }).waitFor();
    assert.deepEqual(await editorViolations(page), []);
    await text.fill(written);
    await allSaved(bar);
    assert.equal(await refused.count(), 0);

    // Published (asked first): the post is served at its address, and the bar says the live post is this draft.
    assert.equal((await fetch(`${suite.server.url}/writing/${SLUG}/`)).status, 404);
    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish the post?' }).getByRole('button', { name: 'Publish the post now' }).click();
    await bar.getByRole('status').filter({ hasText: /^Published version 1\./ }).waitFor({ timeout: 60_000 });
    await answers(suite.server, `/writing/${SLUG}/`, 200);
    await bar.getByText('The live post shows this draft', { exact: true }).waitFor();
    await bar.getByText(/^Live since /).waitFor();
    assert.equal(await bar.getByRole('link', { name: 'View the live post' }).getAttribute('href'), `/writing/${SLUG}/`);
    assert.equal(await bar.getByRole('button', { name: 'Publish', exact: true }).isDisabled(), true);
    await page.getByRole('table', { name: 'Published versions, newest first' }).getByRole('cell', { name: '1', exact: true }).waitFor();

    // Back at the list, the post is published, its link focused.
    await page.getByRole('link', { name: 'All posts' }).click();
    const published = page.getByRole('region', { name: 'Published (1)' });
    await published.getByRole('link', { name: TITLE }).waitFor();
    await page.waitForFunction((slug) => document.activeElement?.id === `post-link-${slug}`, SLUG);
    await published.getByRole('listitem').getByText(/^Published /).waitFor();

    // A second post, scheduled a minute ahead (at least a minute, on the minute): the list says so, and its address answers 404 meanwhile.
    const later = await begin(page, LATER);
    await page.getByLabel('Text, in Markdown', { exact: true }).fill('Written now, read in a minute.\n');
    await allSaved(later);
    const moment = Math.ceil((Date.now() + 60_000) / 60_000) * 60_000;
    await later.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the post later?' });
    assert.equal(await dialog.getByRole('button', { name: 'Schedule the post' }).isDisabled(), true);
    assert.deepEqual(await editorViolations(page), []);
    await dialog.getByLabel('Publish on', { exact: true }).fill(new Date(moment).toISOString().slice(0, 16));
    await dialog.getByRole('button', { name: 'Schedule the post' }).click();
    await later.getByRole('status').filter({ hasText: /^Scheduled for .+\. Until then, its address answers as if it were not published\.$/ }).waitFor({ timeout: 60_000 });
    // The bar says when, from the server's list: the moment it read is the one typed, in its time zone.
    const when = later.locator('time');
    await when.waitFor();
    assert.equal(await when.getAttribute('datetime'), new Date(moment).toISOString());
    await answers(suite.server, '/writing/notes-for-later/', 404);
    await page.getByRole('link', { name: 'All posts' }).click();
    const scheduled = page.getByRole('region', { name: 'Scheduled (1)' });
    await scheduled.getByRole('link', { name: LATER }).waitFor();
    await scheduled.getByText(/^Scheduled for /).waitFor();
    assert.equal(await scheduled.locator('time').getAttribute('datetime'), new Date(moment).toISOString());
    await page.getByRole('region', { name: 'Published (1)' }).getByRole('link', { name: TITLE }).waitFor();
    assert.equal((await fetch(`${suite.server.url}/writing/notes-for-later/`)).status, 404);
    assert.deepEqual(await editorViolations(page), []);

    // A visitor reads the published post on a phone and a laptop, in both schemes: nothing wider than the screen, the image loaded, axe clean.
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const visitor = await openPage(suite.browser, suite.server, { viewport });
      await visitor.page.goto(`${suite.server.url}/writing/${SLUG}/`);
      const article = visitor.page.locator(`article[data-post="${SLUG}"]`);
      await article.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await hydrated(visitor.page);
      assert.ok((await article.locator('pre.code code.language-rust span[class*="hl-"]').count()) > 3, 'the code is highlighted');
      assert.deepEqual(await article.locator('table th').allInnerTexts(), ['Level', 'Count']);
      const image = article.getByRole('img', { name: 'A bar chart of warnings and errors' });
      await image.scrollIntoViewIfNeeded();
      assert.equal(
        await image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth > 0, () => false)),
        true,
        `${viewport.width} px: the image is loaded`,
      );
      const overflow = await visitor.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${viewport.width} px: ${overflow} px wider than the screen`);
      assert.deepEqual(await axeViolations(visitor.page), [], `${viewport.width} px, dark`);
      await visitor.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' }).click();
      await visitor.page.waitForFunction(() => document.documentElement.dataset.scheme === 'light');
      await visitor.page.waitForTimeout(400);
      assert.deepEqual(await axeViolations(visitor.page), [], `${viewport.width} px, light`);
      const wider = await visitor.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wider <= 0, `${viewport.width} px, light: ${wider} px wider than the screen`);
      assert.deepEqual(visitor.errors, []);
      assert.deepEqual(visitor.foreignRequests, []);
      await visitor.close();
    }

    // The home page's Writing section lists it (the scheduled one not yet).
    const home = await openPage(suite.browser, suite.server);
    await home.page.goto(`${suite.server.url}/`);
    const section = home.page.locator('section#writing');
    const link = section.getByRole('link', { name: TITLE });
    await link.waitFor({ state: 'attached' });
    assert.equal(await link.getAttribute('href'), `/writing/${SLUG}/`);
    await link.scrollIntoViewIfNeeded();
    await section.getByRole('heading', { level: 2, name: 'Writing' }).waitFor();
    assert.equal(await section.getByRole('link', { name: LATER }).count(), 0);
    assert.deepEqual(home.errors, []);
    await home.close();

    // The one failed request is the save the server refused for its raw HTML, once (not sent again until the text changed).
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
    assert.deepEqual(foreignRequests, []);
    await close();
    scheduledMoment = moment;
  });

  test(
    'a visitor reads a post with a code block wider than a phone and a right-aligned column: the block scrolls with the keyboard, and the page breaks no rule of its CSP',
    async () => {
      const cookie = await ownerCookie(suite.server);
      const headers = { Cookie: cookie, 'Content-Type': 'application/json', Origin: suite.server.url };
      const begun = await fetch(`${suite.server.url}/api/content/posts`, { method: 'POST', headers, body: JSON.stringify({ title: 'Wide code' }) });
      assert.equal(begun.status, 201, await begun.clone().text());
      const { document } = (await begun.json()) as { document: Record<string, unknown> };
      document.body = [
        '```rust',
        'fn main() { println!("{}", std::env::args().skip(1).collect::<Vec<_>>().join(" ").to_uppercase()); }',
        '```',
        '',
        '| Level | Count |',
        '|-------|------:|',
        '| WARN  | 12    |',
        '',
      ].join('\n');
      const saved = await fetch(`${suite.server.url}/api/content/posts/wide-code/draft`, {
        method: 'PUT',
        headers: { ...headers, 'If-Match': begun.headers.get('ETag')! },
        body: JSON.stringify(document),
      });
      assert.equal(saved.status, 200, await saved.text());
      const published = await fetch(`${suite.server.url}/api/content/posts/wide-code/publish`, { method: 'POST', headers });
      assert.equal(published.status, 200, await published.text());
      await answers(suite.server, '/writing/wide-code/', 200);

      const visitor = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
      await visitor.page.goto(`${suite.server.url}/writing/wide-code/`);
      await hydrated(visitor.page);
      const block = visitor.page.locator('article pre.code');
      assert.ok(await block.evaluate((pre) => pre.scrollWidth > pre.clientWidth), 'the block is wider than the screen');
      assert.equal(await block.getAttribute('tabindex'), '0', 'the block scrolls with the keyboard');
      assert.deepEqual(await axeViolations(visitor.page), []);
      assert.deepEqual(visitor.errors, [], 'no inline style refused by the CSP');
      await visitor.close();
    },
  );

  test('the owner unpublishes a live post from its editor, asked first: its address answers 404 and the bar says so, until it is published again', async () => {
    const post = await publishPost(suite.server, 'Going away soon', { change: (draft) => void (draft.body = 'Here today.\n') });
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=writing&post=${post.id}`);
    const bar = page.getByRole('region', { name: 'Draft and live post' });
    await bar.getByText(/^Live since /).waitFor();
    const unpublish = bar.getByRole('button', { name: 'Unpublish', exact: true });

    // Asked first, naming the address; cancelled, nothing changes.
    await unpublish.click();
    const dialog = page.getByRole('dialog', { name: 'Unpublish the post?' });
    await dialog.getByText(`Its address, ${post.path}, will answer as if it were never published`, { exact: false }).waitFor();
    await dialog.getByText('The draft is kept: publish it to bring the post back at the same address.').waitFor();
    assert.deepEqual(await editorViolations(page), []);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await fetch(suite.server.url + post.path)).status, 200, 'still published');
    await bar.getByText(/^Live since /).waitFor();

    // Confirmed: the message says what happened, the bar where the post stands, and the address is gone.
    await unpublish.click();
    await dialog.getByRole('button', { name: 'Unpublish the post' }).click();
    await bar
      .getByRole('status')
      .filter({ hasText: `Unpublished: ${post.path} now answers "not found", and the lists and feeds leave the post out. The draft is kept: publish it to bring the post back.` })
      .waitFor({ timeout: 60_000 });
    await bar.getByText(/^Unpublished since .+: publish to bring it back$/).waitFor();
    assert.equal(await unpublish.count(), 0, 'nothing left to unpublish');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'post-heading', 'focus is not lost with the button');
    assert.equal(await bar.getByRole('link', { name: 'View the live post' }).count(), 0);
    assert.equal((await fetch(suite.server.url + post.path)).status, 404, 'the address answers 404 once the server has answered');
    assert.doesNotMatch(await (await fetch(`${suite.server.url}/writing/`)).text(), new RegExp(post.path), 'the index leaves it out');
    assert.doesNotMatch(await (await fetch(`${suite.server.url}/feed.xml`)).text(), new RegExp(post.path), 'so does the feed');
    const versions = page.getByRole('table', { name: 'Published versions, newest first' });
    await versions.getByText('unpublished', { exact: true }).waitFor();
    assert.equal(await versions.getByText('live', { exact: true }).count(), 0, 'no version is live');
    assert.deepEqual(await editorViolations(page), []);

    // The list has it among the unpublished.
    await page.getByRole('link', { name: 'All posts' }).click();
    const gone = page.getByRole('region', { name: 'Unpublished (1)' });
    await gone.getByRole('link', { name: 'Going away soon' }).waitFor();
    await gone.getByRole('listitem').getByText(/^Unpublished .+: no address shows it$/).waitFor();

    // Published again from its editor, it is back at its address, and the message of its unpublishing is gone.
    await gone.getByRole('link', { name: 'Going away soon' }).click();
    await bar.getByText(/^Unpublished since /).waitFor();
    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish the post?' }).getByRole('button', { name: 'Publish the post now' }).click();
    await bar.getByRole('status').filter({ hasText: /^Published version \d+\./ }).waitFor({ timeout: 60_000 });
    await answers(suite.server, post.path, 200);
    await bar.getByText(/^Live since /).waitFor();
    await unpublish.waitFor();
    assert.equal(await bar.getByRole('status').filter({ hasText: /^Unpublished:/ }).count(), 0);
    assert.deepEqual(errors, []);
    await close();
  });

  test("where the home page's header leads to the writing, a case study's page does too, as sent and hydrated; with the Writing section hidden, neither does", async () => {
    // A post is published (whatever the tests above left), the placeholder's first case study too (so that it
    // outlives the page's publishes, which take the placeholder's away), and the section shown.
    await publishPost(suite.server, 'Where the header leads');
    await publishStudy(suite.server, 'portfolio');
    await showWriting(suite.server, true);
    const study = '/projects/portfolio/';
    for (const path of ['/', study]) {
      assert.ok(headerLinks(await (await fetch(suite.server.url + path)).text()).includes('/writing/'), `${path}: the header as sent leads to /writing/`);
    }
    const visitor = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await visitor.page.goto(suite.server.url + study);
    await hydrated(visitor.page);
    assert.equal(await writingItem(visitor.page).getAttribute('href'), '/writing/', `${study}, hydrated`);
    await writingItem(visitor.page).click();
    await visitor.page.waitForURL(`${suite.server.url}/writing/`);
    await visitor.page.getByRole('heading', { level: 1, name: 'Writing' }).waitFor();
    assert.deepEqual(visitor.errors, [], 'no error (no hydration mismatch among them)');
    await visitor.close();

    // The owner hides the Writing section: the home page's header drops the item, and so does the case study's.
    await showWriting(suite.server, false);
    assert.ok(!headerLinks(await (await fetch(suite.server.url + study)).text()).includes('/writing/'), `${study}: no Writing item`);
    await showWriting(suite.server, true);
  });

  test("where the home page's header leads to the writing, the error page's does too, in the page's language; with the Writing section hidden, it does not", async () => {
    await publishPost(suite.server, 'Where the error page leads');
    await showWriting(suite.server, true);
    // The error page is drawn in the browser, from its language's page data.
    const visitor = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    const missing = await visitor.page.goto(`${suite.server.url}/no-such-page/`);
    assert.equal(missing?.status(), 404);
    await visitor.page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await writingItem(visitor.page).getAttribute('href'), '/writing/', 'the error page');
    await writingItem(visitor.page).click();
    await visitor.page.waitForURL(`${suite.server.url}/writing/`);
    await visitor.page.getByRole('heading', { level: 1, name: 'Writing' }).waitFor();
    assert.deepEqual(
      visitor.errors.filter((error) => !error.includes('404 (Not Found)')),
      [],
      "no error but the missing page's status",
    );

    // Each language's error page has its own: none while German has no post, then its index.
    await publishDraft(
      suite.server,
      (document) => void (document.languages = [{ tag: 'de', published: true, texts: TRANSLATIONS.de, strings: {} }]),
      async () => (await fetch(`${suite.server.url}/de/`)).status === 200,
    );
    await visitor.page.goto(`${suite.server.url}/de/no-such-page/`);
    await visitor.page.getByRole('heading', { level: 1 }).waitFor();
    await visitor.page.locator('header nav li a[href="/de/#contact"]').waitFor({ state: 'attached' });
    assert.equal(await visitor.page.locator('header nav li a[href$="/writing/"]').count(), 0, 'German has no post yet');
    await publishPost(suite.server, 'Wohin die Fehlerseite führt', { language: 'de' });
    await visitor.page.goto(`${suite.server.url}/de/no-such-page/`);
    await visitor.page.getByRole('heading', { level: 1 }).waitFor();
    await visitor.page.locator('header nav li a[href="/de/writing/"]').waitFor({ state: 'attached' });

    // Hidden, the error page's header has the other items and not this one.
    await showWriting(suite.server, false);
    await visitor.page.goto(`${suite.server.url}/no-such-page/`);
    await visitor.page.getByRole('heading', { level: 1 }).waitFor();
    await visitor.page.locator('header nav li a', { hasText: /^Contact$/ }).waitFor({ state: 'attached' });
    assert.equal(await writingItem(visitor.page).count(), 0, 'the error page: no Writing item');
    await visitor.close();
    await showWriting(suite.server, true);
  });

  test("the post the first test scheduled is served once the server's clock has passed its moment: its address, the index, the feeds and the sitemap", async () => {
    assert.ok(scheduledMoment > 0, 'the first test scheduled it');
    const path = '/writing/notes-for-later/';
    // The server started again on its database with its clock two minutes ahead, more than the
    // moment can be: every instance's two-second look serves the post, with no request of the owner's.
    assert.ok(scheduledMoment - Date.now() < 120_000);
    suite.server = await servers.start(120);
    await answers(suite.server, path, 200);
    for (const page of ['/writing/', '/feed.xml', '/rss.xml', '/feed.json', '/sitemap.xml']) {
      assert.ok((await (await fetch(suite.server.url + page)).text()).includes(path), `${page} has the post`);
    }
  });
});
