/**
 * The contact form against a server whose database is full (a hidden setting holds the SQLite
 * file at its size after the migrations, as a full disk would): the real 503 keeps the visitor's
 * text and says to try again in a moment; the retry carries fresh spam proofs and is stored.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPage, serverAndBrowser } from './harness.ts';
import { hydrated } from './page-support.ts';

describe('the contact form while the database is full', () => {
  // The file cannot grow: a message that needs a page of its own is refused with 503, a short
  // one still fits in the pages the file has.
  const suite = serverAndBrowser({ args: ['--sqlite-max-page-count', '1'] });

  test('a 503 keeps the text and says to try again; the retry sends fresh proofs and is stored', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    const posts: { status: number; body: { altcha?: string; token?: string } }[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('/api/contact') && response.request().method() === 'POST') {
        posts.push({ status: response.status(), body: response.request().postDataJSON() as { altcha?: string } });
      }
    });
    await page.goto(suite.server.url + '/');
    await hydrated(page);
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.scrollIntoViewIfNeeded();
    const long = `A long story. ${'Every detail of the project, written out. '.repeat(110)}`;
    const values = { Name: 'Grace Hopper', Email: 'grace@example.com', Subject: 'A project', Message: long };
    for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);

    // Each send first solves a proof of work: a loaded machine takes its time, so the waits are
    // generous.
    const PATIENCE = { timeout: 120_000 };
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.status() === 503, PATIENCE);
    await form.getByRole('button', { name: 'Send Message' }).click();
    const answer = await refused;
    assert.equal(answer.headers()['retry-after'], '5');
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'storage_unavailable');
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'try again in a moment' }).waitFor(PATIENCE);
    assert.match((await alert.textContent()) ?? '', /not sent, but your text is still here/);
    for (const [label, value] of Object.entries(values)) {
      assert.equal(await form.getByLabel(label, { exact: true }).inputValue(), value, `${label} is kept`);
    }

    // The visitor shortens the message and sends again: new proofs, and this time it is stored.
    await form.getByLabel('Message', { exact: true }).fill('The short version: shall we talk?');
    const stored = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.status() === 201, PATIENCE);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await stored;
    await form.getByRole('status').filter({ hasText: 'Your response has securely sent!' }).waitFor(PATIENCE);
    assert.equal(posts.length, 2);
    assert.notEqual(posts[0]?.body.altcha, posts[1]?.body.altcha, 'the retry solved a new challenge');
    assert.notEqual(posts[0]?.body.token, posts[1]?.body.token, 'and carried a new token');
    // In the Inbox, not in Spam (the export leaves spam out).
    const exported = suite.server.cli(['messages', 'export', '--format', 'json']);
    assert.equal(exported.status, 0, exported.stderr);
    const documents = JSON.parse(exported.stdout) as { message: string }[];
    assert.deepEqual(documents.map((d) => d.message), ['The short version: shall we talk?']);
    // The browser logs the refused request itself; nothing else went wrong.
    assert.ok(errors.every((e) => e.includes('503')), errors.join('\n'));
    await close();
  });
});
