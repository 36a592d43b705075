/**
 * The owner's account against a stolen session (issue 43), in Chromium against the real binary: a
 * second browser holding a copy of the owner's session cookie cannot set up the second factor
 * without the password, and the "sign out every session" link of a notice that the local SMTP
 * server received ends the stolen session. And the security dialog speaks to the owner (issue 46):
 * the key grouped in fours, a wrong code in a sentence, this device marked, exports named.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, restartable, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, EMAIL, fillLogin, OWNER_ENV } from './helpers.ts';
import { freePort, TestSmtp } from './receivers.ts';

describe('a stolen session', () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let port: number;
  let base: string;
  let servers: ReturnType<typeof restartable>;

  /** (Re)starts the server on the same port and database, its clock `offsetSeconds` ahead. */
  async function start(offsetSeconds: number) {
    server = await servers.start(offsetSeconds);
  }

  /** The notices' sign-out links received so far. */
  function signOutLinks(): string[] {
    return smtp.messages
      .map((message) => message.replace(/=\r\n/g, '').replace(/=3D/g, '='))
      .flatMap((message) => message.match(/http:\/\/localhost:\d+\/login\/sign-out#[A-Za-z0-9_-]+/g) ?? []);
  }

  before(async () => {
    smtp = new TestSmtp(await freePort());
    await smtp.start();
    port = await freePort();
    base = `http://localhost:${port}`;
    servers = restartable({
      port,
      args: ['--smtp-url', `smtp://127.0.0.1:${smtp.port}?tls=none`, '--notify-email', EMAIL, '--public-url', base],
      env: OWNER_ENV,
    });
    await start(0);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await servers?.stop();
    await smtp?.stop();
  });

  test('cannot set up the second factor without the password, and the notice\'s link signs it out', async () => {
    const owner = await openPage(browser, { ...server, url: base }, { userAgent: DESKTOP_CHROME });
    const thief = await openPage(browser, { ...server, url: base }, { userAgent: DESKTOP_CHROME });
    try {
      // The owner signs in from a new browser: the notice arrives with its way out.
      await owner.page.goto(`${base}/login`);
      await fillLogin(owner.page, EMAIL, OWNER_ENV.PORTFOLIO_OWNER_PASSWORD);
      await owner.page.waitForURL(`${base}/dashboard`);
      for (let tries = 0; tries < 200 && signOutLinks().length === 0; tries += 1) await new Promise((r) => setTimeout(r, 100));
      const [link] = signOutLinks();
      assert.ok(link, 'the new sign-in notice carries a sign-out link');

      // The thief copies the session cookie into a browser of their own.
      const cookies = await owner.page.context().cookies();
      await thief.page.context().addCookies(cookies.filter((cookie) => cookie.name.includes('session') || cookie.name.includes('signed_in')));

      // Ten minutes on by the server's clock, the cookie still works, but no longer as a proof.
      // (The owner's dashboard is left first: it would ask a server that is restarting.)
      await owner.page.goto('about:blank');
      await start(10 * 60);
      await thief.page.goto(`${base}/dashboard`);
      // Once, in a cold make test, the dashboard never showed here: should it again, the failure
      // says where the page was, what it showed and what the server answered and logged.
      await thief.page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor().catch(async (error: unknown) => {
        const session = await thief.page.evaluate(async () => (await fetch('/api/session')).status).catch(String);
        const shown = (await thief.page.locator('body').innerText().catch(String)).slice(0, 300);
        throw new Error(
          `the stolen cookie's dashboard did not show (${String(error)}): at ${thief.page.url()}, GET /api/session ${session}, ` +
            `the page showed ${JSON.stringify(shown)}; the server's log ends:\n${server.output().slice(-3000)}`,
        );
      });
      await thief.page.getByRole('button', { name: 'Account' }).click();
      await thief.page.getByRole('button', { name: 'Sign-in and security' }).click();
      const dialog = thief.page.getByRole('dialog', { name: 'Sign-in and security' });
      const section = dialog.getByRole('region', { name: 'Two-step verification' });
      await section.getByRole('button', { name: 'Set up' }).click();
      const prompt = thief.page.getByRole('dialog', { name: "Confirm it's you" });
      await prompt.waitFor();
      assert.deepEqual(await axeViolations(thief.page), []);
      await prompt.getByLabel('Password').fill('a-guess-that-is-wrong');
      await prompt.getByRole('button', { name: 'Confirm' }).click();
      await prompt.getByRole('alert').waitFor();
      assert.equal(await section.getByRole('img', { name: 'QR code of the key, for an authenticator app' }).count(), 0, 'no key was shown');
      const state = await thief.page.evaluate(async () => (await fetch('/api/session/second-factor')).json());
      assert.equal(state.enabled, false);

      // The owner opens the notice's link: it asks first, then signs every session out.
      await owner.page.goto(link!);
      await owner.page.getByRole('heading', { name: 'Sign out every session?' }).waitFor();
      assert.equal(new URL(owner.page.url()).hash, '', 'the token leaves the address bar');
      assert.deepEqual(await axeViolations(owner.page), []);
      await owner.page.getByRole('button', { name: 'Sign out every session' }).click();
      await owner.page.getByRole('heading', { name: 'Every session was signed out' }).waitFor();
      assert.deepEqual(await axeViolations(owner.page), []);

      assert.equal(await thief.page.evaluate(async () => (await fetch('/api/session')).status), 401, 'the stolen session ended');
      await thief.page.goto(`${base}/dashboard`);
      await thief.page.waitForURL(`${base}/login`);

      // The link works once (a new load: the same address with its fragment would not reload).
      await owner.page.goto('about:blank');
      await owner.page.goto(link!);
      await owner.page.getByRole('button', { name: 'Sign out every session' }).click();
      await owner.page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      assert.deepEqual(owner.errors.filter((e) => !e.includes('422')), []);
      assert.deepEqual([...owner.foreignRequests, ...thief.foreignRequests], []);
    } finally {
      await owner.close();
      await thief.close();
    }
  });

  test('speaks to the owner: the key in groups of four, a wrong code in a sentence, this device marked, a passkey name asked for, exports named', async () => {
    const owner = await openPage(browser, { ...server, url: base }, { userAgent: DESKTOP_CHROME, permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      await owner.page.goto(`${base}/login`);
      await fillLogin(owner.page, EMAIL, OWNER_ENV.PORTFOLIO_OWNER_PASSWORD);
      await owner.page.waitForURL(`${base}/dashboard`);
      await owner.page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

      // The account menu's exports say what they export.
      await owner.page.getByRole('button', { name: 'Account' }).click();
      await owner.page.getByRole('link', { name: 'Download messages as CSV', exact: true }).waitFor();
      await owner.page.getByRole('link', { name: 'Download messages as JSON', exact: true }).waitFor();
      await owner.page.getByRole('button', { name: 'Sign-in and security' }).click();
      const dialog = owner.page.getByRole('dialog', { name: 'Sign-in and security' });

      // Two browsers alike ("Chrome on a desktop"): this one is marked, and first.
      const sessions = dialog.getByRole('region', { name: 'Signed-in browsers' }).getByRole('listitem');
      await sessions.first().getByText('This device', { exact: true }).waitFor();
      assert.match((await sessions.first().textContent()) ?? '', /^Chrome on a desktopThis deviceSigned in /);

      // The passkey's name: required, and its example cannot pass for a name typed.
      const passkeyName = dialog.getByRole('region', { name: 'Passkeys' }).getByRole('textbox', { name: 'Name of the new passkey (required)' });
      assert.equal(await passkeyName.getAttribute('placeholder'), 'e.g. Work laptop');
      assert.equal(await passkeyName.evaluate((input) => getComputedStyle(input, '::placeholder').fontStyle), 'italic');
      assert.equal(await passkeyName.getAttribute('required'), '');

      // The key in groups of four; read out letter by letter; copied whole.
      const section = dialog.getByRole('region', { name: 'Two-step verification' });
      await section.getByRole('button', { name: 'Set up' }).click();
      const key = section.locator('code');
      await key.waitFor();
      const shown = (await key.locator('[aria-hidden="true"]').textContent()) ?? '';
      assert.match(shown, /^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/, shown);
      const secret = shown.replaceAll(' ', '');
      assert.equal(await key.locator('.sr-only').textContent(), secret.split('').join(' '));
      await section.getByRole('button', { name: 'Copy the key' }).click();
      await section.getByText('Key copied.').waitFor();
      assert.equal(await owner.page.evaluate(() => navigator.clipboard.readText()), secret);

      // A wrong code: a sentence that says what happened and why the next may work.
      await section.getByLabel('Code from the app').fill('000000');
      await section.getByRole('button', { name: 'Turn on' }).click();
      await section.getByRole('alert').filter({ hasText: "That code didn't match. Codes change every 30 seconds." }).waitFor();
      assert.equal(await section.getByText(/code: /).count(), 0);
      assert.deepEqual(await axeViolations(owner.page), []);
      await section.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await owner.close();
    }
  });
});
