/**
 * The owner's ways in and out (issue 31), in Chromium against the real binary: passkeys with the
 * DevTools protocol's virtual authenticator, the second factor with codes computed from the
 * server's clock, a reset link through a local SMTP server, and the list of signed-in browsers.
 *
 * Pages are opened at `http://localhost:PORT`: an IP address cannot be a passkey's relying party,
 * and a server on loopback without a public URL is `localhost`.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, restartable, startServer, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, EMAIL, fillLogin, OWNER_ENV, PASSWORD, totp } from './helpers.ts';
import { freePort, TestSmtp } from './receivers.ts';

const PHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The server's address with `localhost` for its host. */
function local(server: RunningServer): string {
  return server.url.replace('127.0.0.1', 'localhost');
}

/** A watched page (see `openPage`) for a server reached at `base`, whose requests elsewhere are foreign. */
function openAt(browser: Browser, server: RunningServer, base: string, userAgent = DESKTOP_CHROME) {
  return openPage(browser, { ...server, url: base }, { userAgent });
}

async function signInAt(page: Page, base: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/login`);
  await fillLogin(page, EMAIL, password);
  await page.waitForURL(`${base}/dashboard`);
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
}

async function openSecurity(page: Page) {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Sign-in and security' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign-in and security' });
  await dialog.waitFor();
  return dialog;
}

async function signOut(page: Page, base: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${base}/login`);
}

let wasm: Promise<void> | undefined;

/** Reads the QR code the server drew (SVG) the way a phone's camera would: rasterised, then decoded. */
async function readQr(svg: string): Promise<string> {
  const require = createRequire(import.meta.url);
  wasm ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
  await wasm;
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: 400 }, background: 'white' }).render();
  const found = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height);
  assert.ok(found, 'the QR code can be read');
  return found.data;
}

/** Turns the second factor on from the dashboard; answers its key and the recovery codes shown. */
async function turnOnSecondFactor(page: Page, serverNow: () => number) {
  const dialog = await openSecurity(page);
  const section = dialog.getByRole('region', { name: 'Two-step verification' });
  await section.getByRole('button', { name: 'Set up' }).click();
  const qr = section.getByRole('img', { name: 'QR code of the key, for an authenticator app' });
  await qr.waitFor();
  const svg = await page.evaluate(async (src) => (await fetch(src)).text(), (await qr.getAttribute('src'))!);
  const uri = new URL(await readQr(svg));
  assert.equal(uri.protocol, 'otpauth:');
  const secret = uri.searchParams.get('secret')!;
  assert.match(secret, /^[A-Z2-7]{32}$/, 'a 160-bit key');
  const shown = (await section.locator('code [aria-hidden="true"]').textContent()) ?? '';
  assert.equal(shown.replaceAll(' ', ''), secret, 'the key shown for typing (in groups of four) is the one in the QR code');
  await section.getByLabel('Code from the app').fill(totp(secret, serverNow()));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const list = section.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = await list.getByRole('listitem').allTextContents();
  assert.equal(codes.length, 10);
  for (const code of codes) assert.match(code, /^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/i);
  assert.deepEqual(await axeViolations(page), []);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await section.getByText('10 recovery codes left').waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { secret, codes };
}

describe('passkeys', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  const servers: RunningServer[] = [];

  before(async () => {
    server = await startServer({ env: OWNER_ENV });
    servers.push(server);
    base = local(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    for (const running of servers) await running.stop();
    if (servers[0]) rmSync(servers[0].dataDir, { recursive: true, force: true });
  });

  /** A page whose browser has a platform authenticator that verifies its user and answers at once. */
  async function withAuthenticator(context: BrowserContext, page: Page) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  test('added from the dashboard, it signs in; removed, it is refused', async () => {
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    const { cdp, authenticatorId } = await withAuthenticator(page.context(), page);
    try {
      await signInAt(page, base);
      let dialog = await openSecurity(page);
      let passkeys = dialog.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByText('No passkeys yet.').waitFor();
      await passkeys.getByLabel('Name of the new passkey').fill('Work laptop');
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      // The password sign-in a moment ago proves it is the owner: no second prompt.
      await passkeys.getByRole('status').filter({ hasText: 'Passkey "Work laptop" added.' }).waitFor();
      await passkeys.getByText(/never used/).waitFor();
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(credentials.length, 1);
      assert.equal(credentials[0]!.isResidentCredential, true, 'a discoverable credential');
      assert.equal(credentials[0]!.rpId, 'localhost');

      await passkeys.getByRole('button', { name: 'Rename Work laptop' }).click();
      await passkeys.getByLabel('New name for Work laptop').fill('Laptop');
      await passkeys.getByRole('button', { name: 'Save' }).click();
      await passkeys.getByText('Renamed to "Laptop".').waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The e-mail field's autofill: Chromium's virtual authenticator answers the page's
      // conditional request at once, as a person picking the passkey from the list would.
      const autofilled = page.waitForResponse((response) => response.url().endsWith('/api/session/passkey/finish'));
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      assert.equal((await autofilled).status(), 200);
      await page.waitForURL(`${base}/dashboard`);
      await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

      // The button, in a browser that offers no passkeys in its autofill (signed out without the
      // login page, whose autofill would sign in again at once).
      await page.context().addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      // The session ended behind the dashboard's back: a request of its own (the checklist, the
      // inbox) in flight meanwhile is answered 401, as it should be; only those are forgiven.
      const before = watched.errors.length;
      assert.equal(await page.evaluate(async () => (await fetch('/api/session', { method: 'DELETE' })).status), 204);
      await page.goto(`${base}/login`);
      watched.errors.splice(before, Infinity, ...watched.errors.slice(before).filter((error) => !error.includes('status of 401')));
      const offer = page.getByRole('button', { name: 'Sign in with a passkey' });
      await offer.waitFor();
      assert.equal(await page.getByLabel('Email address').getAttribute('autocomplete'), 'username webauthn');
      assert.deepEqual(await axeViolations(page), []);
      await offer.click();
      await page.waitForURL(`${base}/dashboard`);
      dialog = await openSecurity(page);
      await dialog.getByRole('region', { name: 'Signed-in browsers' }).getByText(/with a passkey/).waitFor();
      passkeys = dialog.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByText(/last used/).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      assert.deepEqual(watched.errors, []);
      assert.deepEqual(watched.foreignRequests, []);
    } finally {
      await watched.close();
    }
  });

  test('removing a passkey asks for the password again once five minutes have passed, and it no longer signs in', async () => {
    // The same database, ten minutes later by the server's clock: the sign-in no longer counts
    // as a proof, and the sessions (idle for less than their limit) are still valid.
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    const { cdp, authenticatorId } = await withAuthenticator(page.context(), page);
    try {
      await signInAt(page, base);
      let dialog = await openSecurity(page);
      let passkeys = dialog.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByLabel('Name of the new passkey').fill('Phone');
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      await passkeys.getByText('Passkey "Phone" added.').waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();

      const port = new URL(server.url).port;
      await server.stop(true);
      server = await startServer({
        env: { ...OWNER_ENV, PORTFOLIO_CLOCK_OFFSET: String(10 * 60) },
        port: Number(port),
        dataDir: server.dataDir,
      });
      servers.push(server);

      await page.reload();
      dialog = await openSecurity(page);
      passkeys = dialog.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByRole('button', { name: 'Remove Phone' }).click();
      await passkeys.getByRole('button', { name: 'Remove Phone' }).click();
      const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
      await prompt.waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await prompt.getByLabel('Password').fill('not-the-password-at-all');
      await prompt.getByRole('button', { name: 'Confirm' }).click();
      await prompt.getByRole('alert').waitFor();
      await prompt.getByLabel('Password').fill(PASSWORD);
      await prompt.getByRole('button', { name: 'Confirm' }).click();
      await passkeys.getByText('Passkey "Phone" removed.').waitFor();
      assert.equal(await prompt.isVisible(), false);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The authenticator still holds it; the server refuses it.
      assert.equal((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length, 1);
      // Offered by the autofill, and from the button, the server refuses it.
      const refused = page.waitForResponse((response) => response.url().endsWith('/api/session/passkey/finish'));
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      assert.equal((await refused).status(), 401);
      await page.getByRole('alert').filter({ hasText: 'This passkey could not sign you in.' }).waitFor();
      const again = page.waitForResponse((response) => response.url().endsWith('/api/session/passkey/finish'));
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      assert.equal((await again).status(), 401);
      await page.getByRole('alert').filter({ hasText: 'This passkey could not sign you in.' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/login');
    } finally {
      await watched.close();
    }
  });
});

describe('the second factor', () => {
  // The server's clock runs three days ahead of this machine's: only codes computed from the
  // server's time are accepted.
  const OFFSET_MS = 3 * 24 * 3600 * 1000;
  const serverNow = () => Date.now() + OFFSET_MS;
  let server: RunningServer;
  let browser: Browser;
  let base: string;
  let recoveryCodes: string[] = [];

  before(async () => {
    server = await startServer({ env: { ...OWNER_ENV, PORTFOLIO_CLOCK_OFFSET: String(OFFSET_MS / 1000) } });
    base = local(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('set up from its QR code, it asks for a code at sign-in; reused and wrong codes are refused, then throttled; a recovery code works once', async () => {
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    try {
      await signInAt(page, base);
      const { secret, codes } = await turnOnSecondFactor(page, serverNow);
      recoveryCodes = codes;
      await signOut(page, base);

      const codeStep = async () => {
        await fillLogin(page, EMAIL, PASSWORD);
        await page.getByLabel('Authentication code').waitFor();
      };
      const submit = async (code: string) => {
        await page.getByLabel('Authentication code').fill(code);
        await page.getByRole('button', { name: 'Verify' }).click();
      };
      const refused = async (pattern: RegExp) => {
        await page.getByRole('alert').filter({ hasText: pattern }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/login');
      };

      await codeStep();
      assert.deepEqual(await axeViolations(page), []);
      // A code of this machine's time, three days before the server's, is wrong.
      await submit(totp(secret, Date.now()));
      await refused(/^That code didn't match\. Codes change every 30 seconds\.$/);
      // The setup used this step's code: a code is taken once, so the next step's (accepted, as
      // clocks drift) signs in.
      const code = totp(secret, serverNow() + 30_000);
      await submit(code);
      await page.waitForURL(`${base}/dashboard`);

      await signOut(page, base);
      await codeStep();
      await submit(code);
      await refused(/^That code didn't match\. Codes change every 30 seconds\.$/);
      await submit(codes[0]!.toLowerCase());
      await page.waitForURL(`${base}/dashboard`);
      const dialog = await openSecurity(page);
      await dialog.getByText('9 recovery codes left').waitFor();
      await dialog.getByRole('region', { name: 'Signed-in browsers' }).getByText(/with the password and a code/).first().waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();

      await signOut(page, base);
      await codeStep();
      await submit(codes[0]!);
      await refused(/^That code didn't match\. Codes change every 30 seconds\.$/);
      let throttled = false;
      for (let attempt = 0; attempt < 8 && !throttled; attempt += 1) {
        await submit('000000');
        await page.getByRole('alert').waitFor();
        throttled = /Too many wrong codes/.test((await page.getByRole('alert').textContent()) ?? '');
      }
      assert.ok(throttled, 'wrong codes are throttled');
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Try again in \d+ seconds/);

      // Locked out of codes for now, the owner can start over with the password.
      await page.getByRole('button', { name: 'Start over' }).click();
      await page.getByLabel('Email address').waitFor();
      assert.deepEqual(watched.foreignRequests, []);
    } finally {
      await watched.close();
    }
  });

  test('new recovery codes replace the old, and turned off, the password alone signs in again', async () => {
    // A browser new to the server (the other test's throttle holds its own), signing in with a
    // recovery code.
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    try {
      await page.goto(`${base}/login`);
      await fillLogin(page, EMAIL, PASSWORD);
      await page.getByLabel('Authentication code').fill(recoveryCodes[1]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${base}/dashboard`);

      const dialog = await openSecurity(page);
      const section = dialog.getByRole('region', { name: 'Two-step verification' });
      await section.getByText('8 recovery codes left').waitFor();
      await section.getByRole('button', { name: 'New recovery codes' }).click();
      const list = section.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      const fresh = await list.getByRole('listitem').allTextContents();
      assert.equal(fresh.length, 10);
      assert.ok(!fresh.includes(recoveryCodes[2]!));
      await section.getByRole('button', { name: 'I have saved them' }).click();
      await section.getByText('10 recovery codes left').waitFor();
      await section.getByRole('button', { name: 'Turn off' }).click();
      await section.getByRole('status').filter({ hasText: 'Two-step verification is off.' }).waitFor();
      await section.getByRole('button', { name: 'Set up' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();

      await signOut(page, base);
      await signInAt(page, base);
      assert.deepEqual(watched.errors, []);
    } finally {
      await watched.close();
    }
  });
});

describe('a way back in', () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let port: number;
  let base: string;
  let servers: ReturnType<typeof restartable>;
  let password = PASSWORD;

  /** (Re)starts the server on the same port and database, its clock `offsetSeconds` ahead. */
  async function start(offsetSeconds: number) {
    server = await servers.start(offsetSeconds);
  }

  /** The reset links e-mailed so far. */
  function links(): string[] {
    return smtp.messages
      .map((message) => message.replace(/=\r\n/g, '').replace(/=3D/g, '='))
      .flatMap((message) => message.match(/http:\/\/localhost:\d+\/login\/reset#[A-Za-z0-9_-]+/g) ?? []);
  }

  async function waitForLinks(count: number): Promise<string[]> {
    for (let tries = 0; tries < 100 && links().length < count; tries += 1) await new Promise((r) => setTimeout(r, 100));
    assert.equal(links().length, count);
    return links();
  }

  async function askForLink(page: Page, email: string) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'E-mail me a reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'a reset link is on its way' }).waitFor();
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

  test('"Forgot password?" e-mails a link that sets a new password once and ends every session; an unknown address gets the same answer and no e-mail', async () => {
    const other = await openAt(browser, server, base, PHONE_SAFARI);
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    try {
      await signInAt(other.page, base);

      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      assert.deepEqual(await axeViolations(page), []);
      await askForLink(page, 'someone@example.com');
      await askForLink(page, EMAIL);
      const [link] = await waitForLinks(1);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(links().length, 1, 'one e-mail: none for the unknown address');
      assert.ok(link!.startsWith(`${base}/login/reset#`), 'built from the public URL');

      await page.goto(link!);
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
      assert.deepEqual(await axeViolations(page), []);
      const fresh = 'amber-quartz-meadow-1987';
      await page.getByLabel('New password', { exact: true }).fill(fresh);
      await page.getByLabel('Repeat the new password').fill(fresh + 'x');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByText('The two passwords differ.').waitFor();
      await page.getByLabel('Repeat the new password').fill(fresh);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'Your password was changed' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      assert.equal(await page.evaluate(async () => (await fetch('/api/session')).status), 401, 'a reset never signs in');

      // The other browser's session ended.
      await other.page.reload();
      await other.page.waitForURL(`${base}/login`);

      // The link works once.
      await page.goto(`${base}/login`);
      await page.goto(link!);
      await page.getByLabel('New password', { exact: true }).fill('another-long-passphrase-2');
      await page.getByLabel('Repeat the new password').fill('another-long-passphrase-2');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();

      await page.goto(`${base}/login`);
      await fillLogin(page, EMAIL, PASSWORD);
      await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
      await signInAt(page, base, fresh);
      password = fresh;
      assert.deepEqual(watched.foreignRequests, []);
    } finally {
      await watched.close();
      await other.close();
    }
  });
  test('with the second factor on, the reset page asks for a code; a link lasts 30 minutes', async () => {
    const watched = await openAt(browser, server, base);
    const { page } = watched;
    try {
      // The second factor on, through the API (its page has tests of its own).
      await signInAt(page, base, password);
      const secret = await page.evaluate(async () => {
        const response = await fetch('/api/session/second-factor/setup', { method: 'POST' });
        return ((await response.json()) as { secret: string }).secret;
      });
      const confirmed = await page.evaluate(
        async (code) =>
          (await fetch('/api/session/second-factor/confirm', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) })).status,
        totp(secret, Date.now()),
      );
      assert.equal(confirmed, 200);
      await page.evaluate(() => fetch('/api/session', { method: 'DELETE' }));

      // Ten minutes later by the server's clock (one link per five minutes).
      await start(10 * 60);
      await askForLink(page, EMAIL);
      const link = (await waitForLinks(2))[1]!;
      await page.goto(link);
      const next = 'silver-canyon-orchard-2031';
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Repeat the new password').fill(next);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      const code = page.getByLabel('Authentication code');
      await code.waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await code.fill(totp(secret, Date.now() + 10 * 60_000));
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'Your password was changed' }).waitFor();

      // The reset left the second factor on.
      await page.goto(`${base}/login`);
      await fillLogin(page, EMAIL, next);
      await page.getByLabel('Authentication code').waitFor();

      // A link asked for now no longer works 40 minutes later.
      await start(20 * 60);
      await askForLink(page, EMAIL);
      const late = (await waitForLinks(3))[2]!;
      await start(60 * 60);
      await page.goto(late);
      await page.getByLabel('New password', { exact: true }).fill('another-long-passphrase-2');
      await page.getByLabel('Repeat the new password').fill('another-long-passphrase-2');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    } finally {
      await watched.close();
    }
  });
});

describe('signed-in browsers', () => {
  let server: RunningServer;
  let browser: Browser;
  let base: string;

  before(async () => {
    server = await startServer({ env: OWNER_ENV });
    base = local(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the list shows each browser signed in; signing one out ends it', async () => {
    const laptop = await openAt(browser, server, base);
    const phone = await openAt(browser, server, base, PHONE_SAFARI);
    try {
      await signInAt(laptop.page, base);
      await signInAt(phone.page, base);
      const dialog = await openSecurity(laptop.page);
      const section = dialog.getByRole('region', { name: 'Signed-in browsers' });
      const items = section.getByRole('listitem');
      await items.nth(1).waitFor();
      assert.equal(await items.count(), 2);
      const texts = await items.allTextContents();
      assert.ok(texts.some((text) => text.includes('Chrome on a desktop') && text.includes('This device')), texts.join(' | '));
      assert.ok(texts.some((text) => text.includes('Safari on a phone') && !text.includes('This device')), texts.join(' | '));
      assert.ok(texts.every((text) => text.includes('with the password')));
      assert.deepEqual(await axeViolations(laptop.page), []);

      await section.getByRole('button', { name: /^Sign out Safari on a phone,/ }).click();
      await items.nth(1).waitFor({ state: 'detached' });
      assert.equal(await items.count(), 1);
      await phone.page.reload();
      await phone.page.waitForURL(`${base}/login`);

      // Its own entry signs this browser out.
      await section.getByRole('button', { name: /^Sign out Chrome on a desktop \(this device\)/ }).click();
      await laptop.page.waitForURL(`${base}/login`);
      assert.equal(await laptop.page.evaluate(async () => (await fetch('/api/session')).status), 401);
      assert.deepEqual(laptop.errors.filter((error) => !error.includes('401')), []);
    } finally {
      await laptop.close();
      await phone.close();
    }
  });
});
