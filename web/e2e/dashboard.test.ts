/** Browser tests of the owner's dashboard: the inbox of contact messages, end to end. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, PHONE, startServer, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, PASSWORD, sendMessage, signIn } from './helpers.ts';

describe('the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({
      args: ['--trust-proxy'],
      env: OWNER_ENV,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('with no messages the inbox says so', async () => {
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('heading', { name: 'No messages yet' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });

  test('a message submitted from / appears in the inbox', async () => {
    const visitor = await openPage(browser, server);
    await visitor.page.goto(server.url + '/');
    await hydrated(visitor.page);
    await visitor.page.getByLabel('Name', { exact: true }).fill('Visiting Recruiter');
    await visitor.page.getByLabel('Email', { exact: true }).fill('recruiter@example.org');
    await visitor.page.getByLabel('Subject', { exact: true }).fill('A role for you');
    await visitor.page.getByLabel('Message', { exact: true }).fill('We would love to talk about a front-end role.');
    await visitor.page.getByRole('button', { name: 'Send Message' }).click();
    await visitor.page.getByText('Your response has securely sent!').waitFor();
    await visitor.close();

    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /A role for you/ }).waitFor();
    await close();
  });

  test('the owner reads, marks spam, searches and deletes with undo', async () => {
    await sendMessage(server, { name: 'Ada Lovelace', subject: 'Analytical engines', message: 'Could we collaborate on the engine notes?' });
    await sendMessage(server, { name: 'Grace Hopper', subject: 'Compilers', message: 'A question about COBOL and <b>markup</b>.' });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);

    // Newest first, with the unread count.
    const list = page.getByRole('list').filter({ has: page.getByRole('button', { name: /Compilers/ }) });
    const rows = list.getByRole('listitem');
    await page.getByRole('button', { name: /Compilers/ }).waitFor();
    assert.match((await rows.first().textContent()) ?? '', /Compilers/);
    const unreadBefore = Number(/(\d+) unread in the inbox/.exec((await page.getByText(/unread in the inbox/).textContent()) ?? '')?.[1]);
    assert.ok(unreadBefore >= 2);

    // Read: the whole text, escaped; the count drops.
    await page.getByRole('button', { name: /Compilers/ }).click();
    await page.getByRole('heading', { name: 'Compilers', level: 2 }).waitFor();
    await page.getByRole('article').getByText('A question about COBOL and <b>markup</b>.').waitFor();
    await page.getByText(`${unreadBefore - 1} unread in the inbox`).waitFor();
    const reply = await page.getByRole('link', { name: 'Reply' }).getAttribute('href');
    assert.equal(reply, 'mailto:grace.hopper@example.org?subject=Re%3A%20Compilers');

    // Mark as unread and open again.
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await page.getByText(`${unreadBefore} unread in the inbox`).waitFor();
    await page.getByRole('button', { name: /Compilers/ }).click();
    await page.getByRole('heading', { name: 'Compilers', level: 2 }).waitFor();
    assert.deepEqual(await axeViolations(page), []);

    // Spam: leaves the inbox, waits in Spam, and comes back.
    await page.getByRole('button', { name: 'Mark as spam' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved to spam.' }).waitFor();
    await page.getByRole('button', { name: /Compilers/ }).waitFor({ state: 'detached' });
    const folders = page.getByRole('navigation', { name: 'Folders' });
    await folders.getByRole('button', { name: 'Spam' }).click();
    await page.getByRole('heading', { name: 'Spam', level: 1 }).waitFor();
    await page.getByRole('button', { name: /Compilers/ }).click();
    await page.getByRole('button', { name: 'Not spam' }).click();
    await page.getByRole('heading', { name: 'No spam' }).waitFor();
    await folders.getByRole('button', { name: /Inbox/ }).click();
    await page.getByRole('button', { name: /Compilers/ }).waitFor();

    // Search across the fields.
    const search = page.getByRole('searchbox', { name: 'Search messages' });
    await search.fill('engine');
    await page.getByRole('button', { name: /Compilers/ }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /Analytical engines/ }).waitFor();
    await search.fill('grace.hopper@');
    await page.getByRole('button', { name: /Compilers/ }).waitFor();
    await search.fill('nothing matches this');
    await page.getByRole('heading', { name: 'No messages match' }).waitFor();
    await search.fill('');
    await page.getByRole('button', { name: /Analytical engines/ }).waitFor();

    // Delete, undo, delete again, then delete for good from the trash.
    await page.getByRole('button', { name: /Analytical engines/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: /Analytical engines/ }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: /Analytical engines/ }).waitFor();
    await page.getByRole('button', { name: /Analytical engines/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: /Analytical engines/ }).waitFor({ state: 'detached' });
    await folders.getByRole('button', { name: 'Trash' }).click();
    await page.getByRole('button', { name: /Analytical engines/ }).click();
    await page.getByRole('button', { name: 'Delete forever' }).click();
    await page.getByRole('button', { name: 'Yes, delete forever' }).click();
    await page.getByRole('heading', { name: 'The trash is empty' }).waitFor();

    assert.deepEqual(errors, []);
    await close();
  });

  test('thousands of messages are paged with Load more', async () => {
    for (let i = 0; i < 55; i += 1) {
      await sendMessage(server, { name: 'Bulk Sender', subject: `Bulk message ${String(i).padStart(2, '0')}`, message: 'Hello' });
    }
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Bulk message 54/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Bulk message 04/ }).count(), 0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('button', { name: /Bulk message 00/ }).waitFor();
    await close();
  });

  test('on a phone nothing overflows sideways and an opened message takes the screen', async () => {
    const { page, close } = await openPage(browser, server, { viewport: PHONE });
    await signIn(page, server);
    const row = page.getByRole('button', { name: /Bulk message 54/ });
    await row.waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(await overflow(), 0);
    await row.click();
    await page.getByRole('heading', { name: 'Bulk message 54', level: 2 }).waitFor();
    assert.equal(await row.isVisible(), false, 'the list steps aside');
    assert.equal(await overflow(), 0);
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await row.waitFor();
    await close();
  });

  test('export links download CSV and JSON of the messages', async () => {
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: 'Account' }).click();
    for (const [name, type] of [
      ['Download messages as CSV', 'text/csv'],
      ['Download messages as JSON', 'application/json'],
    ] as const) {
      const href = await page.getByRole('link', { name }).getAttribute('href');
      assert.ok(href);
      const response = await page.request.get(server.url + href);
      assert.equal(response.status(), 200);
      assert.ok(response.headers()['content-type']?.startsWith(type));
      assert.match(response.headers()['content-disposition'] ?? '', /^attachment/);
    }
    await close();
  });

  test('a message caught as spam says why in plain words and can be moved back', async () => {
    // A script's message: no form token, no challenge. Stored all the same, in Spam.
    const response = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.251, 10.0.0.9' },
      body: JSON.stringify({
        name: 'Scripted Sender',
        email: 'script@example.org',
        subject: 'Caught by the traps',
        message: 'Sent without the page.',
        'form-name': 'contact',
      }),
    });
    assert.equal(response.status, 201);
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Caught by the traps/ }).waitFor({ state: 'detached' });
    const folders = page.getByRole('navigation', { name: 'Folders' });
    await folders.getByRole('button', { name: 'Spam' }).click();
    await page.getByRole('heading', { name: 'Spam', level: 1 }).waitFor();
    await page.getByRole('button', { name: /Caught by the traps/ }).click();
    await page.getByText('Sent without the form’s start token: not from the contact form.').waitFor();
    await page.getByRole('button', { name: 'Not spam' }).click();
    await page.getByRole('heading', { name: 'No spam' }).waitFor();
    await folders.getByRole('button', { name: /Inbox/ }).click();
    await page.getByRole('button', { name: /Caught by the traps/ }).waitFor();
    await close();
  });

  test('a failure to load shows an error with a way to try again', async () => {
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.route(/\/api\/messages\?/, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } }),
      }),
    );
    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Spam' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
    await alert.waitFor();
    await page.unroute(/\/api\/messages\?/);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No spam' }).waitFor();
    await close();
  });

  test('changing the password needs the current one and keeps this tab signed in', async () => {
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await dialog.getByLabel('New password', { exact: true }).fill('an entirely new passphrase');
    await dialog.getByLabel('Repeat the new password').fill('an entirely new passphrase');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText('Your current password is not correct. Check it and try again.').waitFor();
    await dialog.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByText('Your password was changed.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    // Put it back for the other tests.
    const back = await page.evaluate(
      async ([current, next]) =>
        (
          await fetch('/api/session/password', {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ currentPassword: current, newPassword: next }),
          })
        ).status,
      ['an entirely new passphrase', PASSWORD],
    );
    assert.equal(back, 204);
    await close();
  });
});
