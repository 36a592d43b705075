/**
 * The public pages that say who the owner is, as the server sends them: `/`, a published
 * language's page (German, translated by hand in fixtures/translations.json) and an application
 * link's page (`/a/<slug>`, which serves its language's page at an address of its own), each with
 * the data it hydrates from (the page's own document, in its language) and its canonical URL.
 * The microformats and structured data tests read them.
 */
import assert from 'node:assert/strict';
import type { ContentDocument } from '../src/content/document.ts';
import type { RunningServer } from './harness.ts';
import { ownerCookie, publishDraft } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

export interface OwnerPage {
  /** Where it was fetched, e.g. `/de/`. */
  path: string;
  /** The absolute URL it was fetched from: the base of its relative URLs. */
  url: string;
  /** The page's canonical URL, the public URL of the language's page. */
  canonical: string;
  html: string;
  /** The page's document, in the page's language: what it says, from its data file. */
  document: ContentDocument;
}

/**
 * Publishes the default document with German added (`/de/`), makes an application link in
 * German, and returns the three pages. The server must have been started with `OWNER_ENV`.
 */
export async function ownerPages(server: RunningServer): Promise<OwnerPage[]> {
  await publishDraft(
    server,
    (document) => {
      document.languages = [{ tag: 'de', published: true, texts: TRANSLATIONS.de, strings: {} }];
    },
    async () => (await fetch(`${server.url}/de/`)).status === 200,
  );
  const made = await fetch(`${server.url}/api/links`, {
    method: 'POST',
    headers: { Cookie: await ownerCookie(server), 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ company: 'Acme', role: 'Frontend Developer', language: 'de' }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  const link = (await made.json()) as { path: string };
  return Promise.all([
    fetchPage(server, '/', '/'),
    fetchPage(server, '/de/', '/de/'),
    fetchPage(server, link.path, '/de/'),
  ]);
}

async function fetchPage(server: RunningServer, path: string, canonicalPath: string): Promise<OwnerPage> {
  const url = server.url + path;
  const response = await fetch(url);
  assert.equal(response.status, 200, path);
  const html = await response.text();
  // The page names the file of its data (`data-src`), which its script fetches.
  const dataPath = /<script type="application\/json" id="page-data" data-src="([^"]+)">/.exec(html)?.[1];
  assert.ok(dataPath, `${path} names its data file`);
  const data = (await (await fetch(server.url + dataPath)).json()) as { document: ContentDocument };
  return { path, url, canonical: server.url + canonicalPath, html, document: data.document };
}
