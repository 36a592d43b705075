/**
 * Helpers the browser tests share: the owner they sign in as, signing in through the page or
 * the API, publishing the page's draft or a post through the API, storing a contact message as
 * the page would, and axe's findings as readable lines.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { contactProofs } from './contact-proofs.ts';
import type { RunningServer } from './harness.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

export const EMAIL = 'owner@example.com';
export const PASSWORD = 'violet-harbour-lantern-42';
/** The environment that makes the server create the owner above at start-up. */
/** A desktop Chrome's User-Agent: headless Chromium's own names it as headless, which is counted nowhere. */
export const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

export const OWNER_ENV = { PORTFOLIO_OWNER_EMAIL: EMAIL, PORTFOLIO_OWNER_PASSWORD: PASSWORD } as const;

/** Fills in the login form on the current page and presses Login. */
export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * Signs the owner in through /login and waits for the dashboard's inbox: for a minute, as a
 * loaded machine may take long over the password's hash; should it never come, the failure says
 * where the page was and what the login form showed.
 */
export async function signIn(page: Page, server: RunningServer): Promise<void> {
  await page.goto(server.url + '/login');
  await fillLogin(page, EMAIL, PASSWORD);
  try {
    await page.waitForURL(server.url + '/dashboard', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor({ timeout: 60_000 });
  } catch (error) {
    const seen = await page
      .evaluate(() => ({
        alert: document.querySelector('[role="alert"]')?.textContent ?? '',
        busy: document.querySelector('form')?.getAttribute('aria-busy') ?? '',
        email: (document.querySelector('#login-email') as HTMLInputElement | null)?.value ?? '',
      }))
      .catch(() => null);
    throw new Error(`the owner's sign-in did not reach the inbox: at ${page.url()}, the form showed ${JSON.stringify(seen)} (${String(error)})`);
  }
}

/** Signs the owner in through the API and returns the session's cookie, for calls made with fetch. */
export async function ownerCookie(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  assert.equal(response.status, 200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The owner's API, with the session's cookie and the site's origin. */
export async function ownerApi(server: RunningServer, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(server.url + path, {
    method: init.method ?? 'GET',
    headers: { Cookie: await ownerCookie(server), 'Content-Type': 'application/json', Origin: server.url },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/**
 * Changes the owner's draft through the API, as the editor saves it, publishes it, and waits until
 * `served` says the server shows it (it renders the new pages within a second).
 */
export async function publishDraft(
  server: RunningServer,
  change: (document: Record<string, unknown>) => void,
  served: () => Promise<boolean>,
): Promise<void> {
  const cookie = await ownerCookie(server);
  const draft = (await (await fetch(`${server.url}/api/content/draft`, { headers: { Cookie: cookie } })).json()) as {
    revision: number;
    document: Record<string, unknown>;
  };
  change(draft.document);
  const headers = { Cookie: cookie, 'Content-Type': 'application/json', Origin: server.url };
  const put = await fetch(`${server.url}/api/content/draft`, {
    method: 'PUT',
    headers: { ...headers, 'If-Match': `"${draft.revision}"` },
    body: JSON.stringify(draft.document),
  });
  assert.equal(put.status, 200, await put.text());
  const publish = await fetch(`${server.url}/api/content/publish`, { method: 'POST', headers });
  assert.equal(publish.status, 200, await publish.text());
  // A loaded machine renders slower than the second it takes alone: up to a minute.
  for (let tries = 0; tries < 600; tries += 1) {
    if (await served()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the published draft never reached the page');
}

/** A post as the API keeps it, with the address it is published at. */
export interface PublishedPost {
  id: string;
  /** Its page: `/writing/<slug>/`, under its language's prefix when not the page's. */
  path: string;
  document: Record<string, unknown>;
}

/**
 * Begins a post through the API as the Writing tab does (in `language`, one of the page's languages
 * besides its own, else in the page's), changes
 * its draft with `change`, publishes it and waits until its page answers (a publish renders it
 * within a second alone, up to a minute on a loaded machine).
 */
export async function publishPost(
  server: RunningServer,
  title: string,
  { language, change = () => {} }: { language?: string; change?: (post: Record<string, unknown>) => void } = {},
): Promise<PublishedPost> {
  const headers = { Cookie: await ownerCookie(server), 'Content-Type': 'application/json', Origin: server.url };
  const begun = await fetch(`${server.url}/api/content/posts`, { method: 'POST', headers, body: JSON.stringify(language ? { title, language } : { title }) });
  assert.equal(begun.status, 201, await begun.clone().text());
  const { document } = (await begun.json()) as { document: Record<string, unknown> & { id: string } };
  change(document);
  const saved = await fetch(`${server.url}/api/content/posts/${document.id}/draft`, {
    method: 'PUT',
    headers: { ...headers, 'If-Match': begun.headers.get('ETag')! },
    body: JSON.stringify(document),
  });
  assert.equal(saved.status, 200, await saved.text());
  const published = await fetch(`${server.url}/api/content/posts/${document.id}/publish`, { method: 'POST', headers });
  assert.equal(published.status, 200, await published.text());
  const path = `${language ? `/${language.toLowerCase()}` : ''}/writing/${String(document.slug)}/`;
  for (let tries = 0; tries < 600; tries += 1) {
    if ((await fetch(server.url + path)).status === 200) return { id: document.id, path, document };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the published post never reached ${path}`);
}

/** Publishes the default document with German and Arabic added, translated (see languages.test.ts). */
export async function publishLanguages(server: RunningServer): Promise<void> {
  await publishDraft(
    server,
    (document) => {
      document.languages = (['de', 'ar'] as const).map((tag) => ({ tag, published: true, texts: TRANSLATIONS[tag], strings: {} }));
    },
    async () => (await fetch(`${server.url}/ar/`)).status === 200,
  );
}

let nextClient = 1;

/**
 * Stores a message through the public API, with the page's spam proofs, as from a client address
 * of its own (so that many messages meet no rate limit): the server must be started with
 * `--trust-proxy`, and it keys on the header's rightmost entry.
 */
export async function sendMessage(
  server: RunningServer,
  fields: { name: string; subject: string; message: string; email?: string },
): Promise<void> {
  nextClient += 1;
  const response = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.0.0.9, 198.51.${Math.floor(nextClient / 250)}.${nextClient % 250}`,
    },
    body: JSON.stringify({
      email: `${fields.name.toLowerCase().replace(/\s+/g, '.')}@example.org`,
      ...fields,
      'form-name': 'contact',
      ...(await contactProofs(server.url)),
    }),
  });
  assert.equal(response.status, 201, await response.text());
}

/**
 * axe's violations on the page, one line each (rule and the elements it found), so that a failing
 * `assert.deepEqual(..., [])` says what is wrong. `include` and `exclude` narrow what is checked.
 */
export async function axeViolations(page: Page, scope: { include?: string; exclude?: string } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (scope.include) builder = builder.include(scope.include);
  if (scope.exclude) builder = builder.exclude(scope.exclude);
  const results = await builder.analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** RFC 6238's code (HMAC-SHA-1, six digits, 30 s) of a base32 key at `ms`. */
export function totp(secret: string, ms: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 15;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}
