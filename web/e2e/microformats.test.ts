/**
 * The owner as microformats read them: every public page (`/`, a language's, an application
 * link's), as the real server sends it, parsed by mf2py (pinned in server/fuzz/requirements.txt,
 * run from the project's virtual environment, which scripts/python-venv.sh builds when missing)
 * holds exactly one item, the owner's h-card, with their name, photo, role, the page's canonical
 * URL, e-mail and address, and links to their profiles elsewhere with `rel="me"`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from './harness.ts';
import { OWNER_ENV } from './helpers.ts';
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
function mf2(page: OwnerPage): { parsed: Parsed; version: string } {
  const run = spawnSync(PYTHON, [resolve(import.meta.dirname, 'mf2.py'), page.url], { input: page.html, encoding: 'utf8' });
  assert.equal(run.status, 0, `mf2py failed on ${page.path}:\n${run.stderr}`);
  const [version = '', json = ''] = run.stdout.trim().split('\n');
  return { parsed: JSON.parse(json) as Parsed, version };
}

describe('the owner as an h-card', () => {
  let server: RunningServer;
  let pages: OwnerPage[];
  before(async () => {
    // The virtual environment with mf2py, built here when `make fuzz` has not built it yet.
    const venv = spawnSync(resolve(repository, 'scripts/python-venv.sh'), { encoding: 'utf8' });
    assert.equal(venv.status, 0, `scripts/python-venv.sh failed:\n${venv.stdout}${venv.stderr}`);
    server = await startServer({ env: OWNER_ENV });
    pages = await ownerPages(server);
  });
  after(() => server?.stop());

  test('each public page holds exactly one item, the owner\'s h-card, with what the page says of them', async () => {
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
});
