/**
 * Every kind of page the server answers, checked by the W3C Nu HTML Checker (vnu.jar, from the
 * exact-pinned `vnu-jar` package; it needs Java: `make java`): `/`, a published language's page,
 * an application link's page, the app shell, the 404 page and the owner's preview of a draft (in
 * its default language and in a language not yet published), with the stylesheets they link. The
 * pages are fetched over HTTP as a browser gets them and checked in one start of the checker. Any
 * error or warning fails the test unless an entry of KNOWN_LAGS below (a place where the checker
 * lags behind a standard, each with its spec) matches it; an entry that matches nothing fails it
 * too, so that the list only holds lags still met.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from './harness.ts';
import { OWNER_ENV, ownerCookie, publishDraft } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

/** A message of the checker that is no fault of the page: the checker lags behind the standard. */
interface Lag {
  name: string;
  /** The whole message, anchored. */
  message: RegExp;
  /** The checker's extract of the source around the spot, when the message alone is too broad. */
  extract?: RegExp;
}

const KNOWN_LAGS: Lag[] = [
  // CSS Properties and Values API Level 1, "The @property rule"
  // (https://www.w3.org/TR/css-properties-values-api-1/#at-property-rule): Tailwind registers its
  // custom properties with it (so that they have initial values and transition); the checker's
  // CSS parser knows no such at-rule.
  { name: '@property', message: /^CSS: Unrecognized at-rule “@property”$/ },
  // CSS Conditional Rules Level 3, "Definition of support"
  // (https://www.w3.org/TR/css-conditional-3/#support-definition): a declaration in an @supports
  // condition whose property the browser does not know makes the condition false; it is not an
  // error. Tailwind's Safari test, `not (margin-trim:inline)`, names CSS Box Model Level 4's
  // margin-trim (https://drafts.csswg.org/css-box-4/#margin-trim), which the checker does not know
  // either. The extract narrows it to a condition: the value closed by `)`, not by `;` or `}` as
  // in a style rule.
  {
    name: 'margin-trim in @supports',
    message: /^CSS: “margin-trim”: Property “margin-trim” doesn't exist\.$/,
    extract: /-trim:inline\)/,
  },
  // CSS Transitions Level 1, "The transition-property property"
  // (https://www.w3.org/TR/css-transitions-1/#transition-property-property): its values are
  // `<custom-ident>`s, and a custom property's name is one (CSS Values 4, dashed idents:
  // https://www.w3.org/TR/css-values-4/#dashed-idents), so `transition-property: --tw-gradient-from`
  // transitions Tailwind's registered gradient stops. The checker accepts only the names of the
  // properties it knows.
  {
    name: 'custom property in transition-property',
    message: /^CSS: “transition-property”: “--tw-[a-z-]+” is not a “transition-property” value\.$/,
  },
  // HTML, `rel="expect"` (https://html.spec.whatwg.org/multipage/links.html#link-type-expect): its
  // link is render-blocking with `blocking="render"` (the blocking attribute applies to it:
  // https://html.spec.whatwg.org/multipage/semantics.html#attr-link-blocking). The checker allows
  // `blocking` on a stylesheet's link only. The pre-render's head holds one (scripts/prerender.mjs).
  {
    name: 'link rel=expect blocking=render',
    message: /^A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\.$/,
    extract: /<link rel="expect" href="#[\w-]+" blocking="render">/,
  },
  // Element Timing API (https://w3c.github.io/element-timing/#dom-element-elementtiming), a draft
  // of the W3C Web Performance Working Group that adds the `elementtiming` attribute to elements;
  // the checker knows HTML's own attributes only. The hero's photo carries it (its paint is
  // measured: src/main.tsx).
  {
    name: 'elementtiming',
    message: /^Attribute “elementtiming” not allowed on element “img” at this point\.$/,
  },
];

/** One message of the checker's JSON output (`--format json`). */
interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  firstLine?: number;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
}

/** A page fetched for the checker: what it is, its address, the status it must answer. */
interface Fetched {
  label: string;
  path: string;
  status: number;
  headers?: Record<string, string>;
  /** What shows that the answer is the page meant (the draft's, the language's ...). */
  shows: RegExp;
}

/** Saves the owner's draft, changed by `change`, without publishing it. */
async function saveDraft(server: RunningServer, cookie: string, change: (document: Record<string, unknown>) => void) {
  const draft = (await (await fetch(`${server.url}/api/content/draft`, { headers: { Cookie: cookie } })).json()) as {
    revision: number;
    document: Record<string, unknown>;
  };
  change(draft.document);
  const put = await fetch(`${server.url}/api/content/draft`, {
    method: 'PUT',
    headers: {
      Cookie: cookie,
      'Content-Type': 'application/json',
      Origin: server.url,
      'If-Match': `"${draft.revision}"`,
    },
    body: JSON.stringify(draft.document),
  });
  assert.equal(put.status, 200, await put.text());
}

describe('the pages against the Nu HTML Checker', () => {
  let server: RunningServer;
  let folder: string;
  before(async () => {
    server = await startServer({ env: OWNER_ENV });
    folder = mkdtempSync(join(tmpdir(), 'portfolio-vnu-'));
  });
  after(async () => {
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  test('every kind of page is valid HTML with valid CSS, but for the checker’s known lags', async () => {
    const started = performance.now();
    // A published language, German (hand-made translations: fixtures/translations.json).
    await publishDraft(
      server,
      (document) => {
        document.languages = [{ tag: 'de', published: true, texts: TRANSLATIONS.de, strings: {} }];
      },
      async () => (await fetch(`${server.url}/de/`)).status === 200,
    );
    const cookie = await ownerCookie(server);
    // An application link.
    const created = await fetch(`${server.url}/api/links`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', Origin: server.url },
      body: JSON.stringify({ company: 'Acme', role: 'Frontend Developer' }),
    });
    const body = await created.text();
    assert.equal(created.status, 201, body);
    const link = (JSON.parse(body) as { path: string }).path;
    // A draft unlike the published page: Arabic added (right to left) but not published, the
    // light scheme (marked on <html>) and an accent of its own (its shades in an inline <style>).
    await saveDraft(server, cookie, (document) => {
      document.languages = [
        ...(document.languages as unknown[]),
        { tag: 'ar', published: false, texts: TRANSLATIONS.ar, strings: {} },
      ];
      Object.assign(document.appearance as Record<string, unknown>, { scheme: 'light', accent: '#0f766e' });
    });

    const owner = { Cookie: cookie };
    const pages: Fetched[] = [
      { label: 'home', path: '/', status: 200, shows: /<html lang="en"[ >]/ },
      { label: 'published-language', path: '/de/', status: 200, shows: /<html lang="de"[ >]/ },
      { label: 'application-link', path: link, status: 200, shows: /<html lang="en"[ >]/ },
      { label: 'app-shell', path: '/login', status: 200, shows: /<div id="root"><\/div>/ },
      { label: 'not-found', path: '/no-such-page', status: 404, shows: /<div id="root"><\/div>/ },
      { label: 'language-not-found', path: '/de/no-such-page', status: 404, shows: /<html lang="de" dir="ltr">/ },
      {
        label: 'draft-preview',
        path: '/api/content/draft/preview',
        status: 200,
        headers: owner,
        shows: /data-scheme="light"/,
      },
      {
        label: 'draft-preview-unpublished-language',
        path: '/api/content/draft/preview?language=ar',
        status: 200,
        headers: owner,
        shows: /<html lang="ar" dir="rtl"/,
      },
    ];
    /** Each saved file's name, to the page (or stylesheet) it holds. */
    const saved = new Map<string, string>();
    const stylesheets = new Set<string>();
    for (const page of pages) {
      const response = await fetch(server.url + page.path, { headers: page.headers ?? {} });
      assert.equal(response.status, page.status, `${page.path} answers ${page.status}`);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, `${page.path} is HTML`);
      const html = await response.text();
      assert.match(html, page.shows, `${page.path} is the page meant`);
      const file = join(folder, `${page.label}.html`);
      writeFileSync(file, html);
      saved.set(basename(file), `${page.label} (${page.path})`);
      for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
        const href = /\shref="(\/[^"]+)"/.exec(tag)?.[1];
        if (/\srel="stylesheet"/.test(tag) && href) stylesheets.add(href);
      }
    }
    assert.ok(stylesheets.size > 0, 'the pages link a stylesheet');
    for (const path of stylesheets) {
      const response = await fetch(server.url + path);
      assert.equal(response.status, 200, `${path} answers 200`);
      const file = join(folder, basename(path));
      writeFileSync(file, await response.text());
      saved.set(basename(file), `stylesheet ${path}`);
    }
    const fetchedIn = performance.now() - started;

    // One start of the checker for every file. Info messages (not warnings) are left out; the
    // exit status is 1 when any error is reported, known lags included, so the JSON decides.
    const checking = performance.now();
    const files = [...saved.keys()].map((name) => join(folder, name));
    const run = spawnSync(
      'java',
      ['-jar', VNU_JAR, '--format', 'json', '--also-check-css', '--skip-info-messages', '--stdout', ...files],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const checkedIn = performance.now() - checking;
    assert.ok(!run.error, `java could not be run (make java installs it): ${run.error?.message}`);
    assert.ok(
      run.status === 0 || run.status === 1,
      `the checker exited with ${run.status}:\n${run.stderr}${run.stdout}`,
    );
    const { version, messages } = JSON.parse(run.stdout) as { version: string; messages: VnuMessage[] };

    const uses = new Map(KNOWN_LAGS.map((lag) => [lag, 0]));
    const remaining: string[] = [];
    let errors = 0;
    let warnings = 0;
    for (const message of messages) {
      // Plain info messages are left out by --skip-info-messages; a warning is an info with a subType.
      if (message.type === 'info' && message.subType !== 'warning') continue;
      if (message.type === 'info') warnings += 1;
      else errors += 1;
      const lag = KNOWN_LAGS.find(
        (entry) =>
          entry.message.test(message.message) && (!entry.extract || entry.extract.test(message.extract ?? '')),
      );
      if (lag) {
        uses.set(lag, (uses.get(lag) ?? 0) + 1);
        continue;
      }
      const name = message.url ? basename(new URL(message.url).pathname) : '';
      const file = saved.get(name) ?? (message.url || 'the checker');
      const where = `${file}, line ${message.firstLine ?? message.lastLine ?? '?'}:${message.firstColumn ?? '?'}`;
      const kind = message.type === 'info' ? 'warning' : message.type;
      remaining.push(`${where}: ${kind}: ${message.message}\n      ${JSON.stringify(message.extract ?? '')}`);
    }
    const unused = KNOWN_LAGS.filter((lag) => uses.get(lag) === 0).map((lag) => lag.name);

    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      [
        `Nu HTML Checker ${version}: ${saved.size} files ` +
          `(${pages.length} pages, ${stylesheets.size} stylesheets), ` +
          `set up and fetched in ${seconds(fetchedIn)} s, checked in ${seconds(checkedIn)} s (one JVM start)`,
        `  ${errors} errors and ${warnings} warnings reported; known lags: ` +
          KNOWN_LAGS.map((lag) => `${lag.name} ×${uses.get(lag)}`).join(', '),
        `  ${remaining.length} left${remaining.length ? ':' : ''}`,
        ...remaining.map((line) => `  ${line}`),
      ].join('\n'),
    );
    assert.equal(
      remaining.length,
      0,
      `the checker found ${remaining.length} errors or warnings:\n${remaining.join('\n')}`,
    );
    assert.deepEqual(unused, [], 'known lags that no page meets any more: remove them from KNOWN_LAGS');
  });
});
