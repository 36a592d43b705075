/**
 * The first-day checklist above the inbox (issue 46): it ticks itself as the owner makes the page
 * theirs (through the API, as the editor saves), publishes it and adds a second way in, and leaves
 * once every item is done; each item's link opens its place; folding it away is remembered; axe
 * finds nothing, at a desktop's width and a phone's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, PHONE, serverAndBrowser, startServer, type RunningServer } from './harness.ts';
import { axeViolations, EMAIL, OWNER_ENV, ownerCookie, signIn, totp } from './helpers.ts';
import { freePort, TestSmtp } from './receivers.ts';
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

function checklist(page: Page): Locator {
  return page.getByRole('region', { name: /^Make the page yours/ });
}

/** Each item of the list: its link's text (title, then "Done" or "To do: …"). */
async function items(page: Page): Promise<string[]> {
  return checklist(page).getByRole('listitem').allInnerTexts();
}

async function progress(page: Page, done: number) {
  await checklist(page).getByRole('heading', { name: `Make the page yours ${done} of 6 done` }).waitFor();
}

/** The owner's API, as the dashboard calls it. */
async function owner(server: RunningServer) {
  const cookie = await ownerCookie(server);
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(server.url + path, {
      ...init,
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json', ...init.headers },
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return response;
  };
  return {
    call,
    /** Changes the draft and saves it, as the editor does. */
    async edit(change: (document: Json) => void) {
      const draft = (await (await call('/api/content/draft')).json()) as { revision: number; document: Json };
      change(draft.document);
      await call('/api/content/draft', {
        method: 'PUT',
        headers: { 'If-Match': `"${draft.revision}"` },
        body: JSON.stringify(draft.document),
      });
    },
    async upload(path: string, body: Uint8Array | string): Promise<Json> {
      const bytes = typeof body === 'string' ? body : new Uint8Array(body);
      const response = await call(path, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: bytes });
      return (await response.json()) as Json;
    },
  };
}

describe('the first-day checklist, ticked from the data', () => {
  let server: RunningServer;
  let smtp: TestSmtp;
  let browser: Browser;

  before(async () => {
    smtp = new TestSmtp(await freePort());
    await smtp.start();
    // E-mail notifications set up from the start.
    server = await startServer({
      args: ['--smtp-url', `smtp://127.0.0.1:${smtp.port}?tls=none`, '--notify-email', EMAIL],
      env: OWNER_ENV,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  test('ticks itself as the owner fills the page, and leaves once every item is done', async () => {
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    await progress(page, 1);
    assert.deepEqual(await items(page), [
      'Your name, photo and intro\nTo do: Replace the placeholder’s, all three.',
      'Your projects\nTo do: Replace the sample projects with yours.',
      'Your resume\nTo do: Make it from your page, or upload a PDF.',
      'Publish\nTo do: Publish it, so visitors see your name.',
      'E-mail notifications\nDone',
      'A second way in\nTo do: Add a passkey or turn on two-step verification.',
    ]);
    assert.deepEqual(await axeViolations(page), []);

    const api = await owner(server);
    // The name and a photo of their own: not yet done, the intro is still the placeholder's.
    const pixels = new Uint8Array(64 * 64 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 5) % 256));
    const photo = await api.upload('/api/media?filename=me.png', encodePng(pixels, 64, 64) as Uint8Array);
    await api.edit((document) => {
      document.profile.name = 'Sam Rivera';
      document.media.push({ id: 'upload-me', alt: 'Sam at the harbour', width: photo.width, height: photo.height, sources: photo.sources });
      document.profile.photo = 'upload-me';
    });
    await page.reload();
    await progress(page, 1);
    await api.edit((document) => {
      const intro = 'I make tide tables that work offline.';
      document.profile.intro = intro;
    });
    await page.reload();
    await progress(page, 2);
    assert.equal((await items(page))[0], 'Your name, photo and intro\nDone');

    // Their projects and resume, seen when the owner comes back to the inbox from the editor.
    await api.edit((document) => {
      document.projects = [
        { ...document.projects[0], id: 'tides', title: 'Tide tables', description: 'Tide tables for every harbour, offline.' },
      ];
    });
    await api.upload('/api/media/resume?filename=cv.pdf', PDF);
    await page.getByRole('tab', { name: 'Page' }).click();
    await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Inbox' }).click();
    await progress(page, 4);

    await api.call('/api/content/publish', { method: 'POST' });
    await page.reload();
    await progress(page, 5);
    assert.equal((await items(page))[3], 'Publish\nDone');

    // The second factor on, from the dialog the last item opens; closing it looks again, and the
    // checklist, done, leaves.
    await checklist(page).getByRole('link', { name: /^A second way in/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign-in and security' });
    await dialog.waitFor();
    const secret = await page.evaluate(async () => {
      const response = await fetch('/api/session/second-factor/setup', { method: 'POST' });
      return ((await response.json()) as { secret: string }).secret;
    });
    const confirmed = await page.evaluate(
      async (code) =>
        (
          await fetch('/api/session/second-factor/confirm', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code }),
          })
        ).status,
      totp(secret, Date.now()),
    );
    assert.equal(confirmed, 200);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await checklist(page).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.equal(await checklist(page).count(), 0, 'done, it stays away');
    assert.deepEqual(errors, []);
    await close();
  });
});

describe('the first-day checklist’s links and folding', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('each item opens its place; folded, it stays folded', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await progress(page, 0);
    const link = (name: string) => checklist(page).getByRole('link', { name: new RegExp(`^${name}`) });

    for (const [name, part] of [
      ['Your name, photo and intro', 'profile'],
      ['Your projects', 'projects'],
      ['Your resume', 'resume'],
    ] as const) {
      await link(name).click();
      await page.waitForURL(`${suite.server.url}/dashboard?view=page&part=${part}`);
      await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
      await page.locator('#editor-part h2').first().waitFor();
      await page.getByRole('tab', { name: 'Inbox' }).click();
    }
    await link('Publish').click();
    await page.waitForURL(`${suite.server.url}/dashboard?view=page`);
    await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
    await page.getByRole('button', { name: /^Publish/ }).first().waitFor();
    await page.getByRole('tab', { name: 'Inbox' }).click();

    // Notifications: the account menu, at its test e-mail (which says how to turn them on).
    await link('E-mail notifications').click();
    const test = page.getByRole('button', { name: 'Send a test e-mail' });
    await test.waitFor();
    assert.equal(await test.evaluate((element) => element === document.activeElement), true);
    await page.waitForURL(`${suite.server.url}/dashboard`);
    await page.keyboard.press('Escape');

    await link('A second way in').click();
    const dialog = page.getByRole('dialog', { name: 'Sign-in and security' });
    await dialog.waitFor();
    await dialog.getByRole('region', { name: 'Two-step verification' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${suite.server.url}/dashboard`);

    // Folded away: the progress stays, the steps go, and a reload keeps it so.
    const fold = checklist(page).getByRole('button', { name: 'Hide the steps' });
    assert.equal(await fold.getAttribute('aria-expanded'), 'true');
    await fold.click();
    const unfold = checklist(page).getByRole('button', { name: 'Show the steps' });
    assert.equal(await unfold.getAttribute('aria-expanded'), 'false');
    assert.equal(await checklist(page).getByRole('list').count(), 0);
    await page.reload();
    await progress(page, 0);
    await unfold.waitFor();
    assert.equal(await checklist(page).getByRole('list').count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    await unfold.click();
    assert.equal((await items(page)).length, 6);
    assert.deepEqual(errors, []);
    await close();
  });

  test('fits a phone and stays clean under axe', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: PHONE });
    await signIn(page, suite.server);
    await progress(page, 0);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });
});
