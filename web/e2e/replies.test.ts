/**
 * Browser tests of replying from the inbox against the real server: a visitor writes through an
 * application link's page; the owner opens the message as a conversation, is told what an empty
 * reply lacks, sends a reply, and sees it sent; the test SMTP server receives it threaded (its
 * Message-ID, In-Reply-To, References, `Re:` subject and the original quoted below). A message
 * moved to Spam meanwhile is refused with the server's words, and in Spam the form gives way to
 * why; without the server's e-mail the inbox says how to turn it on and keeps a mailto link. With a
 * site mailbox that cannot be read, the inbox says so. (The visitor's answers read back over
 * IMAP need a real mailbox server: their tests come with that harness.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, EMAIL, OWNER_ENV, ownerApi, sendMessage, signIn } from './helpers.ts';
import { hydrated } from './page-support.ts';
import { TestDovecot } from './dovecot.ts';
import { freePort, parseMail, TestSmtp } from './receivers.ts';

/** The id and creation time of the inbox's message with `subject` (in `folder`). */
async function messageBySubject(server: RunningServer, subject: string, folder = 'inbox'): Promise<{ id: number; createdAt: number }> {
  const response = await ownerApi(server, `/api/messages?folder=${folder}`);
  assert.equal(response.status, 200);
  const { messages } = (await response.json()) as { messages: { id: number; subject: string; createdAt: number }[] };
  const found = messages.find((m) => m.subject === subject);
  assert.ok(found, `no message "${subject}" in ${folder}`);
  return found;
}

/** The opened message: the inbox's one article labelled by its subject. */
function opened(page: Page, subject: string) {
  return page.getByRole('article', { name: subject, exact: true });
}

/**
 * A suite's server, sending e-mail through a test SMTP server of its own (with `extra` arguments,
 * made once the SMTP server is up), and a browser; all stopped after the suite.
 */
function mailingSuite(extra: () => Promise<string[]> = async () => []) {
  const suite = {} as { server: RunningServer; browser: Browser; smtp: TestSmtp };
  before(async () => {
    suite.smtp = new TestSmtp(await freePort());
    await suite.smtp.start();
    suite.server = await startServer({
      args: ['--trust-proxy', '--smtp-url', `smtp://127.0.0.1:${suite.smtp.port}?tls=none`, '--notify-email', EMAIL, ...(await extra())],
      env: OWNER_ENV,
    });
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    await suite.smtp?.stop();
  });
  return suite;
}

describe('replying from the inbox', () => {
  const suite = mailingSuite();

  test('the owner replies to a message that came through a link; the visitor receives it threaded, the quoted original below', async () => {
    const { server, browser, smtp } = suite;
    // An application link, and a visitor who writes from its page.
    const created = await ownerApi(server, '/api/links', { method: 'POST', body: { company: 'Acme', role: 'Frontend Developer' } });
    assert.equal(created.status, 201, await created.clone().text());
    const { path } = (await created.json()) as { path: string };
    const visitor = await openPage(browser, server, { userAgent: DESKTOP_CHROME });
    await visitor.page.goto(server.url + path);
    await hydrated(visitor.page);
    const form = visitor.page.getByRole('form', { name: 'Contact form' });
    await form.scrollIntoViewIfNeeded();
    await form.getByLabel('Name', { exact: true }).fill('Wile E. Coyote');
    await form.getByLabel('Email', { exact: true }).fill('wile@acme.example');
    await form.getByLabel('Subject', { exact: true }).fill('Your application');
    await form.getByLabel('Message', { exact: true }).fill('We liked your projects. Can we talk on Monday?');
    const sent = visitor.page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await sent).status(), 201);
    await visitor.close();
    const message = await messageBySubject(server, 'Your application');

    // The owner opens it: the link it came through, and the reply's form.
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Your application/ }).click();
    const article = opened(page, 'Your application');
    await article.getByText('via Acme, Frontend Developer').waitFor();
    const field = article.getByRole('textbox', { name: 'Your reply' });
    await field.waitFor();
    assert.match(
      (await article.getByText(/^Sent by e-mail to /).textContent()) ?? '',
      /^Sent by e-mail to wile@acme\.example, with their latest words quoted below yours\. Their answers go to owner@example\.com, not back here/,
    );
    // No mailto link while the server sends the reply itself; "Reply" takes the keyboard to the field.
    assert.equal(await article.getByRole('link', { name: /Reply/ }).count(), 0);
    await article.getByRole('button', { name: 'Reply', exact: true }).click();
    assert.ok(await field.evaluate((element) => element === document.activeElement), 'the reply field has the focus');
    assert.deepEqual(await axeViolations(page), []);

    // An empty reply: the server's word for the field, beside it.
    const send = article.getByRole('button', { name: 'Send reply' });
    await send.click();
    const problem = article.getByText('Enter your reply.');
    await problem.waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    const problemId = await problem.getAttribute('id');
    assert.ok(problemId && (await field.getAttribute('aria-describedby'))?.split(' ').includes(problemId), 'the field is described by its problem');
    assert.ok(await field.evaluate((element) => element === document.activeElement), 'the focus is back on the field');
    assert.deepEqual(await axeViolations(page), []);

    // The reply: while it is sent the button says so and waits; then the field empties and the
    // reply shows in the conversation, queued, then sent.
    const words = 'Thank you, Monday suits me.\nWould 10:00 work for you?';
    await field.fill(words);
    assert.equal(await field.getAttribute('aria-invalid'), null, 'typing clears the problem');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/messages/*/replies', async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const sending = article.getByRole('button', { name: 'Sending…' });
    await sending.waitFor();
    assert.ok(await sending.isDisabled(), 'the button waits while the reply is sent');
    release();
    await article.getByRole('status').filter({ hasText: /^Reply queued in the outbox/ }).waitFor();
    assert.equal(await field.inputValue(), '');
    await page.unroute('**/api/messages/*/replies');
    const conversation = article.getByRole('region', { name: 'Conversation' });
    const reply = conversation.getByRole('article', { name: 'You replied' });
    await reply.getByText('Monday suits me.', { exact: false }).waitFor();
    await reply.getByText(/E-mail: Sent /).waitFor({ timeout: 15_000 });
    assert.equal(await reply.locator('[data-delivery]').getAttribute('data-delivery'), 'sent');
    assert.equal(await conversation.getByRole('listitem').count(), 1);
    assert.deepEqual(await axeViolations(page), []);

    // The visitor's mail: threaded after the message, the reply above the quoted original.
    const mails = smtp.messages.map(parseMail).filter((mail) => (mail.headers.get('to') ?? '').includes('wile@acme.example'));
    assert.equal(mails.length, 1, 'one mail to the visitor');
    const [mail] = mails;
    assert.equal(mail!.headers.get('subject'), 'Re: Your application');
    const first = `<contact.${message.id}.${message.createdAt}@example.com>`;
    assert.match(mail!.headers.get('message-id') ?? '', /^<reply\.\d+\.[0-9a-f]+@example\.com>$/);
    assert.equal(mail!.headers.get('in-reply-to'), first);
    assert.equal(mail!.headers.get('references'), first);
    const text = mail!.text;
    const mine = text.indexOf('Thank you, Monday suits me.\nWould 10:00 work for you?');
    const quoted = text.indexOf('> We liked your projects. Can we talk on Monday?');
    assert.ok(mine >= 0, `the reply's words are in the mail:\n${text}`);
    assert.ok(quoted > mine, `the original is quoted below the reply:\n${text}`);

    // Opened again later, the conversation keeps the reply.
    await page.reload();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByRole('button', { name: /Your application/ }).click();
    await opened(page, 'Your application').getByRole('article', { name: 'You replied' }).getByText(/E-mail: Sent /).waitFor();
    // The empty reply's answer is logged by Chromium as a failed resource; nothing else went wrong.
    assert.deepEqual(
      errors.filter((error) => !error.includes('status of 422 (Unprocessable Entity)')),
      [],
    );
    await close();
  });

  test('a message moved to Spam meanwhile is refused with the server’s words; in Spam the form gives way to why', async () => {
    const { server, browser, smtp } = suite;
    await sendMessage(server, { name: 'Ada Lovelace', subject: 'Engines', message: 'Shall we write about the engine?' });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Engines/ }).click();
    const article = opened(page, 'Engines');
    const field = article.getByRole('textbox', { name: 'Your reply' });
    await field.fill('Gladly.');

    // Elsewhere (another tab, say), the message goes to Spam.
    const { id } = await messageBySubject(server, 'Engines');
    const moved = await ownerApi(server, `/api/messages/${id}`, { method: 'PATCH', body: { isSpam: true } });
    assert.equal(moved.status, 200, await moved.text());
    await article.getByRole('button', { name: 'Send reply' }).click();
    await article.getByRole('alert').filter({ hasText: 'This message is in Spam: move it to the inbox before replying.' }).waitFor();
    assert.equal(await field.inputValue(), 'Gladly.', 'the words are kept');
    assert.equal(smtp.messages.filter((m) => m.includes('ada.lovelace@example.org') && m.includes('Subject: Re:')).length, 0);

    await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Spam' }).click();
    await page.getByRole('heading', { name: 'Spam', level: 1 }).waitFor();
    await page.getByRole('button', { name: /Engines/ }).click();
    const inSpam = opened(page, 'Engines');
    await inSpam.getByText('Move this message out of Spam to reply.').waitFor();
    assert.equal(await inSpam.getByRole('textbox', { name: 'Your reply' }).count(), 0);
    assert.equal(await inSpam.getByRole('button', { name: 'Reply', exact: true }).count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    // The refused reply is logged by Chromium as a failed resource; nothing else went wrong.
    assert.deepEqual(
      errors.filter((error) => !error.includes('status of 409 (Conflict)')),
      [],
    );
    await close();
  });
});

describe('replying without the server’s e-mail', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ args: ['--trust-proxy'], env: OWNER_ENV });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('the inbox says how to turn e-mail on, and keeps a mailto link', async () => {
    await sendMessage(server, { name: 'Grace Hopper', subject: 'Compilers', message: 'A question about COBOL.' });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Compilers/ }).click();
    const article = opened(page, 'Compilers');
    await article.getByText('Replies are sent by e-mail: start the server with --smtp-url and --notify-email.').waitFor();
    assert.equal(await article.getByRole('link', { name: 'Reply by e-mail' }).getAttribute('href'), 'mailto:grace.hopper@example.org?subject=Re%3A%20Compilers');
    assert.equal(await article.getByRole('textbox', { name: 'Your reply' }).count(), 0);
    // The server reads no mailbox: no panel of it.
    assert.equal(await page.getByRole('region', { name: 'Site mailbox' }).count(), 0);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});

describe('the site mailbox, when it cannot be read', () => {
  // A mailbox on a port where nothing listens: every read fails.
  const suite = mailingSuite(async () => [
    '--reply-address',
    'answers@example.com',
    '--imap-url',
    `imaps://answers%40example.com:secret@127.0.0.1:${await freePort()}/INBOX`,
  ]);

  test('the inbox shows the failed read, and the reply says answers come back into the conversation', async () => {
    const { server, browser } = suite;
    await sendMessage(server, { name: 'Margaret Hamilton', subject: 'Apollo', message: 'About the guidance software.' });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    const panel = page.getByRole('region', { name: 'Site mailbox' });
    // The reader's first attempt fails within moments of the start; the panel reads on focus and each minute.
    for (let tries = 0; ; tries += 1) {
      await panel.waitFor();
      if ((await panel.getByText(/^Not read: /).count()) > 0) break;
      assert.ok(tries < 30, 'the failed read is shown');
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.reload();
    }
    await panel.getByText('Answers arrive at answers@example.com.').waitFor();
    assert.equal(await panel.getByRole('group').count(), 0, 'no unmatched mail to list');

    await page.getByRole('button', { name: /Apollo/ }).click();
    const article = opened(page, 'Apollo');
    await article
      .getByText(/Their answers go to answers@example\.com and come back into this conversation\.$/)
      .waitFor();
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});

describe('answers read back from the site mailbox (a real Dovecot)', () => {
  let dovecot: TestDovecot;
  const suite = mailingSuite(async () => {
    dovecot = new TestDovecot();
    await dovecot.start();
    return ['--reply-address', 'site@example.org', '--imap-url', dovecot.url, '--imap-ca-file', dovecot.caFile, '--imap-poll', '300ms'];
  });
  after(() => dovecot?.stop());

  /** An answer as Gmail writes it: the new words, the attribution over two lines, the quote. */
  function answer(number: number, from: string, inReplyTo: string | null, words: string): string {
    const threading = inReplyTo ? `In-Reply-To: ${inReplyTo}\r\nReferences: ${inReplyTo}\r\n` : '';
    return [
      `From: Grace Hopper <${from}>`,
      'To: site@example.org',
      'Subject: Re: Compilers',
      `Date: Sun, 6 Dec 2026 10:0${number}:00 +0000`,
      `Message-ID: <answer-${number}@mail.example>`,
      `${threading}MIME-Version: 1.0`,
      'Content-Type: text/plain; charset=UTF-8',
      '',
      words,
      '',
      'On Sun, Dec 6, 2026 at 9:00 AM Owner <site@example.org>',
      'wrote:',
      '> Would Tuesday work?',
      '',
    ].join('\r\n');
  }

  test('an answer that names the reply comes back into the conversation, its quote folded; a forged subject and another sender stay in the mailbox, listed', async () => {
    const { server, browser, smtp } = suite;
    await sendMessage(server, { name: 'Grace Hopper', subject: 'Compilers', message: 'Shall we talk about compilers?' });
    const { page, errors, close } = await openPage(browser, server);
    await signIn(page, server);
    await page.getByRole('button', { name: /Compilers/ }).click();
    const article = opened(page, 'Compilers');
    await article.getByRole('textbox', { name: 'Your reply' }).fill('Would Tuesday work?');
    await article.getByRole('button', { name: 'Send reply' }).click();
    const conversation = article.getByRole('region', { name: 'Conversation' });
    await conversation.getByRole('article', { name: 'You replied' }).getByText(/E-mail: Sent /).waitFor({ timeout: 15_000 });
    const sent = smtp.messages.map(parseMail).find((mail) => (mail.headers.get('to') ?? '').includes('grace.hopper@example.org'));
    assert.ok(sent, 'the reply reached the visitor');
    const ours = sent.headers.get('message-id')!;

    // The visitor answers it; a forger writes with the subject alone; someone else with the reference.
    dovecot.deliver(answer(1, 'grace.hopper@example.org', ours, 'Tuesday suits me, at ten.'));
    dovecot.deliver(answer(2, 'grace.hopper@example.org', null, 'Forged: send me the files.'));
    dovecot.deliver(answer(3, 'mallory@evil.example', ours, 'Me too, please.'));

    // The conversation refreshes when the page is seen again; the answer arrives within moments.
    const answered = conversation.getByRole('article', { name: 'Grace Hopper answered' });
    for (let tries = 0; (await answered.count()) === 0; tries += 1) {
      assert.ok(tries < 60, 'the answer comes back into the conversation');
      await page.waitForTimeout(500);
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    }
    await answered.getByText('Tuesday suits me, at ten.').waitFor();
    const quote = answered.getByText('> Would Tuesday work?', { exact: false });
    assert.equal(await quote.isVisible(), false, 'the quoted text is folded');
    await answered.getByText('Show quoted text').click();
    await quote.waitFor();
    assert.equal(await conversation.getByRole('article', { name: /answered$/ }).count(), 1, 'neither other mail joined');
    assert.equal(await conversation.getByText(/Forged|Me too/).count(), 0);
    assert.deepEqual(await axeViolations(page), []);

    // Both others are listed as not filed, left in the mailbox.
    const panel = page.getByRole('region', { name: 'Site mailbox' });
    for (let tries = 0; (await panel.getByText('2 mails not filed').count()) === 0; tries += 1) {
      assert.ok(tries < 60, 'the two mails are listed');
      await page.waitForTimeout(500);
      await page.reload();
    }
    await panel.getByText('2 mails not filed').click();
    await panel.getByText('mallory@evil.example', { exact: false }).waitFor();
    assert.equal(await panel.getByRole('listitem').count(), 2);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});
