/**
 * Browser tests of delivery the owner can see: with the SMTP server down the dashboard shows the
 * notification retrying with the error (and a banner once it keeps failing), then sent after it
 * comes back; "Send a test e-mail" reports success and failure.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';
import { axeViolations, EMAIL, OWNER_ENV, sendMessage, signIn } from './helpers.ts';

/** A minimal SMTP server (plain, no TLS) that keeps every message it accepts. */
class TestSmtp {
  readonly messages: string[] = [];
  private server: Server | null = null;
  private sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.setEncoding('utf8');
      let buffer = '';
      let data: string | null = null;
      socket.write('220 localhost ESMTP test\r\n');
      socket.on('data', (chunk: string) => {
        buffer += chunk;
        for (;;) {
          if (data !== null) {
            const end = buffer.indexOf('\r\n.\r\n');
            if (end === -1) return;
            this.messages.push(data + buffer.slice(0, end));
            buffer = buffer.slice(end + 5);
            data = null;
            socket.write('250 OK queued\r\n');
            continue;
          }
          const newline = buffer.indexOf('\r\n');
          if (newline === -1) return;
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') socket.write('250 localhost\r\n');
          else if (verb === 'DATA') {
            data = '';
            socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
          } else if (verb === 'QUIT') {
            socket.end('221 Bye\r\n');
            return;
          } else socket.write('250 OK\r\n');
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A local port on which nothing listens yet. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

describe('delivery the owner can see', () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: TestSmtp;

  before(async () => {
    smtp = new TestSmtp(await freePort());
    server = await startServer({
      args: [
        '--trust-proxy',
        '--smtp-url',
        `smtp://127.0.0.1:${smtp.port}?tls=none`,
        '--notify-email',
        EMAIL,
        // Fast retries: five failures within five seconds, so the banner shows without waiting.
        '--notify-retry-base',
        '300ms',
      ],
      env: OWNER_ENV,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  test('with the SMTP server down a notification shows retrying with the error, then sent once it is back', async () => {
    await sendMessage(server, {
      name: 'Grace Hopper',
      email: 'grace@example.org',
      subject: 'A compiler question',
      message: 'Could we talk about a compiler?',
    });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);

    const item = page.getByRole('listitem').filter({ hasText: 'A compiler question' });
    await item.getByText('Notification retrying').waitFor({ timeout: 15_000 });
    await item.getByRole('button').click();
    const article = page.getByRole('article');
    await article.getByText(/Retrying after \d+ failed attempts?; next try at /).waitFor();
    await article.getByText(/^The mail server could not be reached: /).waitFor();

    // Failing again and again, it is said plainly at the top.
    const banner = page.getByRole('alert').filter({ hasText: 'Notifications are failing.' });
    await banner.waitFor({ timeout: 15_000 });
    assert.match(await banner.innerText(), /has not reached you yet; the server keeps trying\. Last error: The mail server could not be reached/);
    assert.deepEqual(await axeViolations(page), []);

    // The SMTP server comes back; "Retry now" sends it without waiting for the backoff.
    await smtp.start();
    const before = smtp.messages.length;
    const retryNow = article.getByRole('button', { name: 'Retry now' });
    await retryNow.focus();
    await page.keyboard.press('Enter');
    await article.getByText(/E-mail: Sent /).waitFor({ timeout: 15_000 });
    await item.getByText('Notified').waitFor();
    await banner.waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(
      smtp.messages.slice(before).some((m) => m.includes('Subject: Contact: A compiler question')),
      'the notification reached the SMTP server',
    );
    assert.deepEqual(errors, []);
    await close();
  });

  test('"Send a test e-mail" reports success, and the error when the SMTP server is down', async () => {
    const { page, close } = await openPage(browser, server);
    await signIn(page, server);
    const account = page.getByRole('button', { name: 'Account' });

    await account.click();
    await page.getByRole('button', { name: 'Send a test e-mail' }).click();
    await page.getByRole('status').filter({ hasText: 'Test e-mail sent: check your inbox.' }).waitFor({ timeout: 15_000 });
    assert.ok(smtp.messages.some((m) => m.includes('Subject: Test e-mail from your portfolio site')));

    await smtp.stop();
    await account.click();
    await page.getByRole('button', { name: 'Send a test e-mail' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'The test e-mail was not sent.' });
    await failure.waitFor({ timeout: 15_000 });
    assert.match(await failure.innerText(), /The mail server could not be reached/);
    await failure.getByRole('button', { name: 'Dismiss' }).click();
    await failure.waitFor({ state: 'detached' });
    await close();
  });
});
