/**
 * Browser tests of follow-ups against the real server: two links with their recipients' addresses
 * are opened by a visitor (a desktop Chrome); nothing is due until the server's clock is two days
 * on (the server restarted on the same database). Then the Applications view lists both; the owner
 * is told what an empty subject lacks, edits the drafted follow-up and sends it, and the test SMTP
 * server receives it with its own Message-ID and the site's reply address; the other is snoozed.
 * Neither is listed after, and the link's details say the follow-up went. Then the owner sets the
 * weekly digest's day and hour; past it by the server's clock, the digest's e-mail arrives with its
 * text and HTML parts, and the webhook gets its JSON.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, restartable, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, EMAIL, OWNER_ENV, ownerApi, signIn } from './helpers.ts';
import { hydrated } from './page-support.ts';
import { freePort, parseMail, TestSmtp, TestWebhook } from './receivers.ts';

const REPLIES = 'replies@example.com';
const DAY = 24 * 60 * 60;

/**
 * What `check` finds, as soon as it finds something: the server sends mail and counts a visit on
 * its own time, so the test waits for that event, with one deadline a loaded machine keeps.
 */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(`waited a minute: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Link {
  id: number;
  path: string;
  firstOpenedAt: number | null;
}

describe('follow-ups', () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: TestSmtp;
  const webhook = new TestWebhook();
  let port: number;
  let base: string;
  let servers: ReturnType<typeof restartable>;

  /** (Re)starts the server on the same port and database, its clock `offsetSeconds` ahead. */
  async function start(offsetSeconds: number) {
    server = await servers.start(offsetSeconds);
  }

  async function createLink(company: string, recipientEmail: string): Promise<Link> {
    const response = await ownerApi(server, '/api/links', {
      method: 'POST',
      body: { company, role: 'Frontend Developer', recipientEmail, followUpDays: 2 },
    });
    assert.equal(response.status, 201);
    return (await response.json()) as Link;
  }

  /** Waits until the link has been opened (beacons are sent without waiting for their answers). */
  async function openedAt(link: Link): Promise<number> {
    return until(`${link.path} opened`, async () => {
      const read = (await (await ownerApi(server, `/api/links/${link.id}`)).json()) as { link: Link };
      return read.link.firstOpenedAt ?? undefined;
    });
  }

  before(async () => {
    smtp = new TestSmtp(await freePort());
    await smtp.start();
    await webhook.start();
    port = await freePort();
    base = `http://localhost:${port}`;
    servers = restartable({
      port,
      args: [
        '--smtp-url',
        `smtp://127.0.0.1:${smtp.port}?tls=none`,
        '--notify-email',
        EMAIL,
        '--reply-address',
        REPLIES,
        '--public-url',
        base,
        '--webhook-url',
        webhook.url,
        '--webhook-secret',
        'a key that signs the webhook posts, long enough',
      ],
      env: OWNER_ENV,
    });
    await start(0);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await servers?.stop();
    await smtp?.stop();
    await webhook.stop();
  });

  test('an opened, quiet link comes up after its days; the owner edits the draft and sends it, or snoozes it', async () => {
    const acme = await createLink('Acme', 'jane@acme.example');
    const globex = await createLink('Globex', 'hank@globex.example');
    // A visitor opens both (opening counts once they scroll).
    const visitor = await openPage(browser, { ...server, url: base }, { userAgent: DESKTOP_CHROME });
    for (const link of [acme, globex]) {
      await visitor.page.goto(base + link.path);
      await hydrated(visitor.page);
      await visitor.page.locator('#projects').scrollIntoViewIfNeeded();
      await openedAt(link);
    }
    await visitor.page.close();

    // The same day: nothing is due, and the view shows no follow-ups.
    const owner = await openPage(browser, { ...server, url: base });
    await signIn(owner.page, { ...server, url: base });
    await owner.page.goto(`${base}/dashboard?view=applications`);
    await owner.page.getByRole('list', { name: 'Application links' }).waitFor();
    const due = (await (await ownerApi(server, '/api/follow-ups')).json()) as { followUps: unknown[] };
    assert.deepEqual(due.followUps, []);
    assert.equal(await owner.page.getByRole('heading', { name: 'Follow-ups due' }).count(), 0);

    // Two days and a minute later by the server's clock: both come up, the longest waiting first.
    await owner.page.goto('about:blank');
    await start(2 * DAY + 60);
    await signIn(owner.page, { ...server, url: base });
    await owner.page.goto(`${base}/dashboard?view=applications`);
    const list = owner.page.getByRole('list', { name: 'Follow-ups due' });
    await list.waitFor();
    const items = list.getByRole('listitem');
    assert.deepEqual(await items.getByRole('heading').allTextContents(), ['Acme, Frontend Developer', 'Globex, Frontend Developer']);
    assert.deepEqual(await axeViolations(owner.page), []);

    // The draft, in the link's language (English), pointing at its address.
    const item = items.filter({ hasText: 'Acme, Frontend Developer' });
    await item.getByText('jane@acme.example').first().waitFor();
    const write = item.getByRole('button', { name: 'Write follow-up' });
    await write.click();
    assert.equal(await write.getAttribute('aria-expanded'), 'true');
    const form = item.getByRole('form', { name: 'Follow-up for Acme, Frontend Developer' });
    const subject = form.getByLabel('Subject');
    const message = form.getByLabel('Message');
    assert.equal(await subject.inputValue(), 'Following up: Frontend Developer at Acme');
    const drafted = await message.inputValue();
    assert.ok(drafted.startsWith('Hello,\n\n'), drafted);
    assert.ok(drafted.includes(base + acme.path), drafted);
    assert.deepEqual(await axeViolations(owner.page), []);

    // An empty subject is named beside its field, and focused.
    await subject.fill('');
    await form.getByRole('button', { name: 'Send follow-up' }).click();
    await form.getByText('Enter the subject.').waitFor();
    assert.equal(await subject.getAttribute('aria-invalid'), 'true');
    assert.ok(await subject.evaluate((element) => element === document.activeElement), 'the field with the problem is focused');

    // Edited and sent.
    await subject.fill('Any news on the Frontend Developer role?');
    const text = drafted.replace('Hello,', 'Hello Jane,');
    await message.fill(text);
    await form.getByRole('button', { name: 'Send follow-up' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Follow-up to jane@acme.example for Acme, Frontend Developer is on its way.' }).waitFor();
    await list.getByRole('heading', { name: 'Acme, Frontend Developer' }).waitFor({ state: 'detached' });

    // The recipient's mail: its own subject and Message-ID, answers to the site's reply address.
    const mail = await until('the follow-up at the SMTP server', () =>
      smtp.messages.map(parseMail).find((m) => (m.headers.get('to') ?? '').includes('jane@acme.example')),
    );
    assert.equal(mail.headers.get('subject'), 'Any news on the Frontend Developer role?');
    assert.equal(mail.headers.get('reply-to'), REPLIES);
    assert.match(mail.headers.get('message-id') ?? '', new RegExp(`^<follow-up\\.${acme.id}\\.[0-9a-f]{24}@example\\.com>$`));
    assert.equal(mail.text.trimEnd(), text);

    // The other is snoozed for a week: the list is gone, and the view says when it comes back.
    const other = items.filter({ hasText: 'Globex, Frontend Developer' });
    await other.getByLabel('Snooze for').selectOption({ label: '1 week' });
    await other.getByRole('button', { name: 'Snooze' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'The follow-up for Globex, Frontend Developer is snoozed; it comes back in 1 week.' }).waitFor();
    await list.waitFor({ state: 'detached' });

    // The link's details say the follow-up went, and was delivered.
    await until('the follow-up delivered', async () => {
      const read = (await (await ownerApi(server, `/api/links/${acme.id}`)).json()) as { link: { followUp: { delivery: { status: string } | null } | null } };
      return read.link.followUp?.delivery?.status === 'sent' ? true : undefined;
    });
    await owner.page.reload();
    const link = owner.page.getByRole('list', { name: 'Application links' }).getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' }).first();
    await link.getByRole('button', { name: /details/i }).click();
    await link.getByText(/Follow-up sent to jane@acme\.example .*, delivered\./).waitFor();
    const globexLink = owner.page.getByRole('list', { name: 'Application links' }).getByRole('listitem').filter({ hasText: 'Globex, Frontend Developer' }).first();
    await globexLink.getByRole('button', { name: /details/i }).click();
    await globexLink.getByText(/Follow-up snoozed until /).waitFor();
    assert.equal(await owner.page.getByRole('heading', { name: 'Follow-ups due' }).count(), 0);

    // The weekly digest, two hours on by the server's clock (UTC, its default time zone).
    const moment = new Date(Date.now() + (2 * DAY + 60 + 2 * 3600) * 1000);
    const weekday = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][moment.getUTCDay()]!;
    const hour = `${String(moment.getUTCHours()).padStart(2, '0')}:00`;
    const digest = owner.page.getByRole('form', { name: 'Weekly digest' });
    const on = digest.getByLabel('Send me a weekly digest');
    assert.equal(await on.isChecked(), false, 'off until the owner turns it on');
    await on.check();
    await digest.getByLabel('Day').selectOption({ label: weekday });
    await digest.getByLabel('Hour (UTC)').selectOption({ label: hour });
    await digest.getByRole('button', { name: 'Save digest settings' }).click();
    await digest.getByRole('status').filter({ hasText: /^Saved: the next digest is due / }).waitFor();
    assert.deepEqual(await axeViolations(owner.page), []);
    await owner.page.goto('about:blank');
    await start(2 * DAY + 60 + 3 * 3600);
    const sent = await until('the digest at the SMTP server', () =>
      smtp.messages.find((raw) => parseMail(raw).headers.get('subject')?.startsWith('Your week:')),
    );
    assert.match(parseMail(sent).headers.get('content-type') ?? '', /^multipart\/alternative/);
    assert.match(sent, /Content-Type: text\/plain; charset=utf-8/);
    assert.match(sent, /Content-Type: text\/html; charset=utf-8/);
    assert.match(sent, /Links opened +2 +0/);
    type Digest = { type?: string; linksOpened?: { this: number }; followUpsDue?: { this: number } };
    const posted = await until('the digest at the webhook', () => (webhook.bodies as Digest[]).find((body) => body.type === 'weekly_digest'));
    assert.equal(posted.linksOpened?.this, 2);
    assert.equal(posted.followUpsDue?.this, 0, 'one follow-up sent, the other snoozed');
    await owner.page.close();
  });
});
