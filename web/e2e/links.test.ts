/**
 * Browser tests of application links against the real server: the owner creates a link in the
 * Applications view; a visitor (a desktop Chrome) opens it, scrolls to the projects, follows a
 * project's demo, downloads the resume and writes; the owner sees each, the inbox names the link,
 * and the first open is announced once, by e-mail and by webhook. A headless browser's visit and a
 * revoked link count nothing; the visitor's browser keeps no cookie and no storage.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';
import { axeViolations, DESKTOP_CHROME, EMAIL, OWNER_ENV, ownerCookie, signIn } from './helpers.ts';
import { hydrated } from './page-support.ts';
import { freePort, TestSmtp, TestWebhook } from './receivers.ts';

interface Link {
  id: number;
  path: string;
  state: string;
  firstOpenedAt: number | null;
  totals: { opens: number; visitors: number; resumeDownloads: number; projectClicks: number; messages: number; sections: Record<string, number> };
}

/** The owner's links, through the API with the owner's session. */
async function links(server: RunningServer): Promise<Link[]> {
  const response = await fetch(`${server.url}/api/links`, { headers: { Cookie: await ownerCookie(server) } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { links: Link[] }).links;
}

/**
 * Waits until the link at `path` satisfies `ready` (beacons are sent without waiting for their
 * answers): half a minute at most, for a loaded machine.
 */
async function linkWhen(server: RunningServer, path: string, ready: (link: Link) => boolean): Promise<Link> {
  let last: Link | undefined;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    last = (await links(server)).find((link) => link.path === path);
    if (last && ready(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the link never got there: ${JSON.stringify(last)}`);
}

/** The new-link form, opened from its button once there are links (it is open while there are none). */
async function newLinkForm(page: Page, server: RunningServer) {
  await page.goto(`${server.url}/dashboard?view=applications`);
  const form = page.getByRole('form', { name: 'New link' });
  const button = page.getByRole('button', { name: 'New link' });
  await page.getByRole('list', { name: 'Application links' }).or(form).first().waitFor();
  if (await button.isVisible()) await button.click();
  return form;
}

/** Creates a link in the Applications view; returns its full address. */
async function createInView(page: Page, server: RunningServer, company: string, role: string): Promise<string> {
  const form = await newLinkForm(page, server);
  await form.getByLabel('Company').fill(company);
  await form.getByLabel('Role').fill(role);
  await form.getByRole('button', { name: 'Create link' }).click();
  const ready = page.getByRole('status').filter({ hasText: `The link for ${company}, ${role} is ready` });
  await ready.waitFor();
  return (await ready.locator('code').textContent()) ?? '';
}

describe('application links', () => {
  let server: RunningServer;
  let browser: Browser;
  const webhook = new TestWebhook();
  let mail: TestSmtp;

  before(async () => {
    mail = new TestSmtp(await freePort());
    await mail.start();
    await webhook.start();
    server = await startServer({
      args: [
        '--smtp-url',
        `smtp://127.0.0.1:${mail.port}?tls=none`,
        '--notify-email',
        EMAIL,
        '--webhook-url',
        webhook.url,
        '--webhook-secret',
        'a key that signs the webhook posts, long enough',
      ],
      env: OWNER_ENV,
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await mail?.stop();
    await webhook.stop();
  });

  test('a visitor opens a link, looks at the projects, follows a demo, downloads the resume and writes; the owner sees each, alerted once', async () => {
    const owner = await openPage(browser, server);
    await signIn(owner.page, server);
    const address = await createInView(owner.page, server, 'Acme', 'Frontend Developer');
    const path = new URL(address).pathname;
    assert.match(path, /^\/a\/acme-[A-Za-z0-9_-]{11,}$/, 'a prefix that is no language, and at least 64 random bits');
    const item = owner.page.getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' });
    await item.getByText('Sent', { exact: true }).waitFor();
    assert.deepEqual(await axeViolations(owner.page), []);

    // The link's page: the published page, kept out of search engines, its canonical the page's own.
    const fetched = await fetch(address);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get('x-robots-tag'), 'noindex');
    assert.match(await fetched.text(), new RegExp(`<link rel="canonical" href="[^"]*/" class="u-url" />`));
    assert.equal((await linkWhen(server, path, () => true)).totals.opens, 0, 'a fetch without the page counts nothing');

    // The visitor, a desktop Chrome: opening counts once they scroll.
    const visitor = await openPage(browser, server, { userAgent: DESKTOP_CHROME, acceptDownloads: true });
    await visitor.page.goto(address);
    await hydrated(visitor.page);
    await visitor.page.locator('#projects').scrollIntoViewIfNeeded();
    await linkWhen(server, path, (link) => link.totals.opens === 1 && (link.totals.sections.projects ?? 0) === 1);
    // A project's demo (kept on the page: tests never reach other sites) and the resume.
    await visitor.page.evaluate(() =>
      document.addEventListener('click', (event) => {
        if ((event.target as Element).closest('a[data-track]')) event.preventDefault();
      }),
    );
    await visitor.page.getByRole('link', { name: 'Live demo of Food Recipes (opens in a new tab)' }).click();
    const download = visitor.page.waitForEvent('download');
    await visitor.page.getByRole('link', { name: 'Download Resume' }).first().click();
    assert.equal((await download).suggestedFilename(), 'resume.pdf');
    // A message, sent from the page.
    const form = visitor.page.getByRole('form', { name: 'Contact form' });
    await form.scrollIntoViewIfNeeded();
    await form.getByLabel('Name', { exact: true }).fill('Wile E. Coyote');
    await form.getByLabel('Email', { exact: true }).fill('wile@acme.example');
    await form.getByLabel('Subject', { exact: true }).fill('Your application');
    await form.getByLabel('Message', { exact: true }).fill('We liked your projects. Can we talk on Monday?');
    const sent = visitor.page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await sent).status(), 201);
    const link = await linkWhen(
      server,
      path,
      (l) => l.totals.projectClicks === 1 && l.totals.resumeDownloads === 1 && l.totals.messages === 1,
    );
    assert.equal(link.state, 'wrote');
    assert.equal(link.totals.visitors, 1);
    assert.ok(link.firstOpenedAt);
    // Nothing is kept in the visitor's browser.
    assert.deepEqual(await visitor.page.context().cookies(), []);
    assert.deepEqual(await visitor.page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);
    assert.deepEqual(visitor.errors, []);
    assert.deepEqual(visitor.foreignRequests, []);
    await visitor.close();

    // The owner's view: the state, the figures, how far they got.
    await owner.page.reload();
    await item.getByText('Wrote', { exact: true }).waitFor();
    for (const [label, value] of [
      ['Opens:', '1'],
      ['Visitors:', '1'],
      ['Project links:', '1'],
      ['Resume downloads:', '1'],
      ['Messages:', '1'],
    ]) {
      assert.equal(await item.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd').textContent(), value, label);
    }
    await item.getByRole('button', { name: 'Details' }).click();
    await item.getByRole('list', { name: 'Sections seen' }).getByText('Projects: 1').waitFor();
    await item.getByRole('region', { name: 'Daily figures for Acme, Frontend Developer' }).waitFor();
    assert.deepEqual(await axeViolations(owner.page), []);

    // The inbox names the link.
    await owner.page.goto(`${server.url}/dashboard`);
    const message = owner.page.getByRole('listitem').filter({ hasText: 'Your application' });
    await message.getByText('via Acme, Frontend Developer').waitFor();
    await message.getByRole('button').click();
    await owner.page.getByRole('article').getByText('via Acme, Frontend Developer').waitFor();

    // The first open was announced once, by e-mail and by webhook, naming the link and nothing of the visitor.
    const announced = async () => {
      const mails = mail.messages.filter((text) => /opened/i.test(text) && text.includes('Acme'));
      const hooks = webhook.bodies.filter((body) => JSON.stringify(body).includes('"open"'));
      return { mails, hooks };
    };
    let alerts = await announced();
    for (let i = 0; i < 100 && (alerts.mails.length === 0 || alerts.hooks.length === 0); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      alerts = await announced();
    }
    assert.equal(alerts.mails.length, 1, 'one e-mail of the first open');
    assert.equal(alerts.hooks.length, 1, 'one webhook call of the first open');
    assert.ok(!alerts.mails[0]!.includes('wile@acme.example') && !JSON.stringify(alerts.hooks[0]).includes('127.0.0.1'));
    await owner.close();
  });

  test('the new-link form folds behind its button once there are links; its problems are sentences beside their fields; a card shows its language and expiry', async () => {
    const owner = await openPage(browser, server);
    await signIn(owner.page, server);
    const form = await newLinkForm(owner.page, server);
    const button = owner.page.getByRole('button', { name: 'New link' });
    assert.equal(await button.getAttribute('aria-expanded'), 'true', 'a link exists: the form opened from its button');

    // Nothing typed: each field says what to do, beside it, and the first is focused; no summary repeats it.
    await form.getByRole('button', { name: 'Create link' }).click();
    const company = form.getByLabel('Company');
    await form.getByText('Enter the company.', { exact: true }).waitFor();
    await form.getByText('Enter the role.', { exact: true }).waitFor();
    assert.equal(await company.getAttribute('aria-invalid'), 'true');
    await owner.page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'company');
    assert.equal(await owner.page.getByText(/correct the fields/).count(), 0);
    assert.equal(await owner.page.getByText(/Company: /).count(), 0);
    assert.deepEqual(await axeViolations(owner.page), []);

    // A link that expires on 12 January next year.
    await company.fill('Globex');
    await form.getByLabel('Role').fill('Staff Engineer');
    const year = new Date().getFullYear() + 1;
    await form.getByLabel('Expires').fill(`${year}-01-12`);
    await form.getByRole('button', { name: 'Create link' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'The link for Globex, Staff Engineer is ready' }).waitFor();
    // Created, the form folds again behind its button.
    await form.waitFor({ state: 'detached' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    const card = owner.page.getByRole('listitem').filter({ hasText: 'Globex, Staff Engineer' });
    await card.getByText(/^English · Expires (12 Jan|Jan 12)/).waitFor();
    const other = owner.page.getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' });
    await other.getByText('English · No expiry', { exact: true }).waitFor();
    assert.deepEqual(await axeViolations(owner.page), []);
    await owner.close();
  });

  test('a link made for its recipient keeps the address and the days before a follow-up; a wrong address or a fraction of a day is named beside its field', async () => {
    const owner = await openPage(browser, server);
    await signIn(owner.page, server);
    const form = await newLinkForm(owner.page, server);
    const days = form.getByLabel('Follow up after (days, once opened)');
    assert.equal(await days.inputValue(), '5', 'five days unless the owner says otherwise');
    await form.getByLabel('Company').fill('Hooli');
    await form.getByLabel('Role').fill('Web Developer');
    const recipient = form.getByLabel("Recipient's e-mail (optional, for a follow-up)");
    await recipient.fill('gavin@');
    await days.fill('2.5');
    await form.getByRole('button', { name: 'Create link' }).click();
    await form.getByText('Enter a whole number of days from 1 to 60.', { exact: true }).waitFor();
    assert.equal(await days.getAttribute('aria-invalid'), 'true');
    await days.fill('12');
    await form.getByRole('button', { name: 'Create link' }).click();
    await form.getByText(/^The recipient's e-mail address must be a valid e-mail address/).waitFor();
    assert.equal(await recipient.getAttribute('aria-invalid'), 'true');
    await owner.page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'recipientEmail');
    assert.deepEqual(await axeViolations(owner.page), []);

    await recipient.fill('gavin@hooli.example');
    await form.getByRole('button', { name: 'Create link' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'The link for Hooli, Web Developer is ready' }).waitFor();
    const card = owner.page.getByRole('listitem').filter({ hasText: 'Hooli, Web Developer' });
    await card.getByRole('button', { name: 'Details' }).click();
    await card.getByText('Sent to gavin@hooli.example. A follow-up comes up 12 days after the first open, with no message through it.').waitFor();
    const stored = (await (await fetch(`${server.url}/api/links`, { headers: { cookie: await ownerCookie(server) } })).json()) as {
      links: { company: string; recipientEmail: string | null; followUpDays: number }[];
    };
    const hooli = stored.links.find((link) => link.company === 'Hooli')!;
    assert.deepEqual([hooli.recipientEmail, hooli.followUpDays], ['gavin@hooli.example', 12]);
    const other = owner.page.getByRole('listitem').filter({ hasText: 'Acme, Frontend Developer' });
    await other.getByRole('button', { name: 'Details' }).click();
    await other.getByText(/^No recipient's e-mail: a follow-up has no one to go to\. A follow-up comes up 5 days after/).waitFor();
    assert.deepEqual(await axeViolations(owner.page), []);
    await owner.close();
  });

  test('a headless browser\'s visit and a revoked link count nothing', async () => {
    const owner = await openPage(browser, server);
    await signIn(owner.page, server);
    const address = await createInView(owner.page, server, 'Initech', 'Web Developer');
    const path = new URL(address).pathname;

    // Headless Chromium, as it names itself: a scanner, not a person.
    const headless = await openPage(browser, server);
    await headless.page.goto(address);
    await hydrated(headless.page);
    await headless.page.locator('#projects').scrollIntoViewIfNeeded();
    await headless.page.waitForTimeout(1000);
    await headless.close();
    assert.equal((await linkWhen(server, path, () => true)).totals.opens, 0);

    // Revoked: the page is the same, and nothing counts.
    const item = owner.page.getByRole('listitem').filter({ hasText: 'Initech, Web Developer' });
    await item.getByRole('button', { name: 'Revoke' }).click();
    await item.getByText(/Revoked/).waitFor();
    const visitor = await openPage(browser, server, { userAgent: DESKTOP_CHROME });
    const answer = await visitor.page.goto(address);
    assert.equal(answer?.status(), 200);
    await hydrated(visitor.page);
    await visitor.page.locator('#projects').scrollIntoViewIfNeeded();
    await visitor.page.waitForTimeout(1000);
    await visitor.close();
    const link = await linkWhen(server, path, () => true);
    assert.equal(link.totals.opens, 0);
    assert.equal(link.state, 'sent');
    await owner.close();
  });
});
