/**
 * The owner as microformats read them: every public page about the owner (`/`, a language's, an
 * application link's), as the real server sends it, parsed by mf2py (pinned in
 * server/fuzz/requirements.txt, run from the project's virtual environment, which
 * scripts/python-venv.sh builds when missing) holds exactly one item, the owner's h-card, with
 * their name, photo, role, the page's canonical URL, e-mail and address, and links to their
 * profiles elsewhere with `rel="me"`; the home page's Writing section, listing a post, adds
 * nothing to it.
 *
 * A post's page (`/writing/<slug>/`) is the post's, not the owner's: its one item is the post's
 * h-entry (what IndieWeb readers, Webmention receivers and microformats feeds take a post from),
 * with its title, summary, body, dates, address and tags, and its author the owner's h-card nested
 * as a property (`p-author`): their name and their page, whose own h-card has that URL, which is
 * how IndieWeb's authorship algorithm finds the whole card. So the page is not an h-card itself,
 * as `/` is: a second top-level item would make readers guess which one the page is.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from './harness.ts';
import { OWNER_ENV, publishPost, type PublishedPost } from './helpers.ts';
import { ownerPages, type OwnerPage } from './owner-pages.ts';

const repository = resolve(import.meta.dirname, '../..');
const PYTHON = resolve(repository, 'target/fuzz-venv/bin/python');

interface Item {
  type: string[];
  properties: Record<string, unknown[]>;
  children?: Item[];
}

interface Parsed {
  items: Item[];
  rels: Record<string, string[]>;
}

/** mf2py's parse of a page, and the line it printed first (its version). */
function mf2(page: { path: string; url: string; html: string }): { parsed: Parsed; version: string } {
  const run = spawnSync(PYTHON, [resolve(import.meta.dirname, 'mf2.py'), page.url], { input: page.html, encoding: 'utf8' });
  assert.equal(run.status, 0, `mf2py failed on ${page.path}:\n${run.stderr}`);
  const [version = '', json = ''] = run.stdout.trim().split('\n');
  return { parsed: JSON.parse(json) as Parsed, version };
}

const DAY = 86_400_000;

/** The post whose page is read: tagged, summarised, with a footnote, first published a month ago and updated now. */
const POST = {
  title: 'Reading logs & <counting> "levels"',
  summary: 'A small tool that counts the levels of a service log.',
  body: 'It reads a log line by line.[^1]\n\n```rust\nfn main() {}\n```\n\n[^1]: Or a file of them.\n',
  tags: ['Rust', 'Tooling'],
};

describe('the owner as an h-card', () => {
  let server: RunningServer;
  let pages: OwnerPage[];
  let post: PublishedPost;
  // Its first publish's day, a month ago: the post was imported with that date, and is published again now.
  const date = Date.now() - 30 * DAY;
  before(async () => {
    // The virtual environment with mf2py, built here when `make fuzz` has not built it yet.
    const venv = spawnSync(resolve(repository, 'scripts/python-venv.sh'), { encoding: 'utf8' });
    assert.equal(venv.status, 0, `scripts/python-venv.sh failed:\n${venv.stdout}${venv.stderr}`);
    server = await startServer({ env: OWNER_ENV });
    // Published first, so that `/` shows its Writing section (and the header its Writing item) when read.
    post = await publishPost(server, POST.title, { change: (draft) => Object.assign(draft, { summary: POST.summary, body: POST.body, tags: POST.tags, date }) });
    pages = await ownerPages(server);
  });
  after(() => server?.stop());

  test('each public page holds exactly one item, the owner\'s h-card, with what the page says of them', async () => {
    assert.match(pages[0]!.html, new RegExp(`<section id="writing"[^]*href="${post.path}"`), '/ lists the post in its Writing section');
    for (const page of pages) {
      const { parsed, version } = mf2(page);
      const { profile, contact, media } = page.document;
      assert.deepEqual(
        parsed.items.map((item) => item.type),
        [['h-card']],
        `${page.path}: one item, the h-card (a utility class read as a root would be another)`,
      );
      const card = parsed.items[0]!;
      assert.equal(card.children, undefined, `${page.path}: nothing nested in it`);
      // Every property, and no other: a utility class read as a property would be one more.
      assert.deepEqual(Object.keys(card.properties).sort(), ['adr', 'email', 'job-title', 'name', 'photo', 'url'], page.path);
      assert.deepEqual(card.properties.name, [profile.name], page.path);
      assert.deepEqual(card.properties['job-title'], [profile.role], page.path);
      assert.deepEqual(card.properties.url, [page.canonical], `${page.path}: its URL is the page's canonical one`);
      assert.deepEqual(card.properties.email, [`mailto:${contact.email}`], page.path);
      assert.deepEqual(card.properties.adr, [profile.location.display], page.path);
      const [photo] = card.properties.photo as { value: string; alt: string }[];
      assert.equal(card.properties.photo!.length, 1, page.path);
      assert.equal(photo!.alt, media.find((item) => item.id === profile.photo)?.alt, `${page.path}: the photo's text, in the page's language`);
      const image = await fetch(new URL(photo!.value, page.url));
      assert.equal(image.status, 200, photo!.value);
      assert.match(image.headers.get('content-type') ?? '', /^image\//, photo!.value);
      // The profiles elsewhere, each once however often the page links it.
      assert.deepEqual([...(parsed.rels.me ?? [])].sort(), page.document.social.map((link) => link.url).sort(), `${page.path}: rel="me"`);
      console.log(
        `${version}, ${page.path}: one h-card (${Object.entries(card.properties)
          .map(([name, values]) => `${name} ${JSON.stringify(typeof values[0] === 'object' ? (values[0] as { value: string }).value : values[0])}`)
          .join(', ')}), rel="me" ${parsed.rels.me?.length ?? 0} links`,
      );
    }
  });

  test("a post's page holds exactly one item, the post's h-entry, with the owner's h-card as its author", async () => {
    const url = server.url + post.path;
    const response = await fetch(url);
    assert.equal(response.status, 200, post.path);
    const html = await response.text();
    const { parsed, version } = mf2({ path: post.path, url, html });
    assert.deepEqual(
      parsed.items.map((item) => item.type),
      [['h-entry']],
      `${post.path}: one item, the h-entry (the page is no h-card, and a utility class read as a root would be another item)`,
    );
    const entry = parsed.items[0]!;
    assert.equal(entry.children, undefined, 'nothing nested in it but its author');
    // Every property, and no other: a utility class read as a property would be one more.
    assert.deepEqual(Object.keys(entry.properties).sort(), ['author', 'category', 'content', 'name', 'published', 'summary', 'updated', 'url']);
    assert.deepEqual(entry.properties.name, [POST.title], 'the title, as written');
    assert.deepEqual(entry.properties.summary, [POST.summary]);
    assert.deepEqual(entry.properties.category, POST.tags, 'each tag, by its name');
    // Its address is the page's canonical one.
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    assert.equal(canonical, url);
    assert.deepEqual(entry.properties.url, [canonical]);
    // Published the day of its date (a month ago), updated by today's publish; both to the second, in UTC.
    const moment = (value: unknown) => Date.parse(String(value).replace(' ', 'T'));
    const [published] = entry.properties.published!;
    const [updated] = entry.properties.updated!;
    assert.equal(moment(published), Math.floor(date / 1000) * 1000, `published ${String(published)}`);
    assert.ok(Math.abs(moment(updated) - Date.now()) < 10 * 60_000, `updated ${String(updated)}: the publish just made`);
    // The body as the server wrote it: its text, its highlighted code, its footnote; none of the page around it.
    const [content] = entry.properties.content as { html: string; value: string }[];
    assert.equal(entry.properties.content!.length, 1);
    assert.match(content!.html, /^<p>It reads a log line by line\.<sup class="footnote-ref">/);
    assert.match(content!.html, /<pre class="code"[^>]*><code class="language-rust"><span class="hl-/);
    assert.match(content!.value, /Or a file of them\./);
    assert.doesNotMatch(content!.html, /<h1|<nav|A small tool that counts/, 'the title, the summary and the ways around are not the body');
    // Its author: the owner's name and their page, whose own h-card says that URL is theirs.
    const home = pages.find((page) => page.path === '/')!;
    const [author] = entry.properties.author as Item[];
    assert.equal(entry.properties.author!.length, 1);
    assert.deepEqual(author!.type, ['h-card']);
    assert.deepEqual(author!.properties, { name: [home.document.profile.name], url: [home.canonical] });
    const card = mf2(home).parsed.items[0]!;
    assert.deepEqual(card.properties.url, author!.properties.url, "the author's URL is the URL of the owner's own h-card");
    console.log(
      `${version}, ${post.path}: one h-entry (${Object.entries(entry.properties)
        .map(([name, values]) => `${name} ${JSON.stringify(typeof values[0] === 'object' ? ((values[0] as { value?: string }).value ?? '').slice(0, 40) : values[0])}`)
        .join(', ')})`,
    );
  });
});
