/**
 * The contact form's outcome in a real browser against the real binary (issue 47): on `/de/` an
 * empty message is refused in German, beside each field and in a summary above them whose links
 * take the visitor to the fields, with no bubble of the browser's own (in the browser's language);
 * a message sent shows a success panel that names the sender and says when to expect an answer
 * (the document's `contact.responseTime`, as published), focused and read out, the emptied form
 * below it; typing again, sending again or a later failure takes it away. axe is clean in each state.
 * The owner writes the time to answer in the editor's Contact part, and translates it with the page.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, ownerCookie, OWNER_ENV, publishDraft, signIn } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

const FORM = 'form[aria-label]';

async function openForm(page: Page, url: string, name: string): Promise<Locator> {
  await page.goto(url);
  await hydrated(page);
  const form = page.getByRole('form', { name });
  await form.scrollIntoViewIfNeeded();
  return form;
}

/** Counts the `invalid` events the browser fires: its own validation, with its bubble, runs only with them. */
async function countInvalidEvents(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { invalidEvents: number }).invalidEvents = 0;
    document.addEventListener('invalid', () => ((window as unknown as { invalidEvents: number }).invalidEvents += 1), true);
  });
  return () => page.evaluate(() => (window as unknown as { invalidEvents: number }).invalidEvents);
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The element's box is wholly above the other's. */
async function above(upper: Locator, lower: Locator): Promise<boolean> {
  const [a, b] = [await upper.boundingBox(), await lower.boundingBox()];
  assert.ok(a && b, 'both drawn');
  return a.y + a.height <= b.y;
}

async function publishGerman(server: RunningServer, change: (document: Record<string, unknown>) => void = () => {}) {
  await publishDraft(
    server,
    (document) => {
      document.languages = [{ tag: 'de', published: true, texts: TRANSLATIONS.de, strings: {} }];
      change(document);
    },
    async () => (await fetch(`${server.url}/de/`)).status === 200,
  );
}

describe("the contact form's outcome", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('on /de/ an empty message is refused in German beside each field and in a summary above them, with no browser bubble', async () => {
    await publishGerman(suite.server);
    // A browser in English on the German page: a bubble of its own would be in English.
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, { locale: 'en-US' });
    // In daylight (the visitor's choice, stored by the page's switch); the next test is in the dark scheme.
    await page.addInitScript(() => localStorage.setItem('portfolio:scheme', 'light'));
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/contact')) posts.push(request.url());
    });
    const form = await openForm(page, `${suite.server.url}/de/`, 'Kontaktformular');
    assert.equal(await form.evaluate((element) => (element as HTMLFormElement).noValidate), true, 'the form is novalidate');
    const invalidEvents = await countInvalidEvents(page);

    await form.getByLabel('E-Mail', { exact: true }).fill('ada@');
    await form.getByRole('button', { name: 'Nachricht senden' }).click();
    const summary = form.getByRole('alert');
    await summary.waitFor();
    assert.equal(await invalidEvents(), 0, 'the browser did not validate (no bubble)');
    assert.deepEqual(posts, [], 'nothing sent');
    assert.equal(await summary.locator('p').first().textContent(), 'Bitte korrigieren Sie Folgendes:');
    const problems = [
      ['Name', 'Name ist ein Pflichtfeld.'],
      ['E-Mail', 'E-Mail muss eine gültige E-Mail-Adresse sein.'],
      ['Betreff', 'Betreff ist ein Pflichtfeld.'],
      ['Nachricht', 'Nachricht ist ein Pflichtfeld.'],
    ] as const;
    assert.deepEqual(
      await summary.getByRole('link').allTextContents(),
      problems.map(([, problem]) => problem),
    );
    assert.ok(await isFocused(summary), 'the summary takes the focus');
    assert.ok(await above(summary, form.getByLabel('Name', { exact: true })), 'the summary is above the fields');
    for (const [label, problem] of problems) {
      const field = form.getByLabel(label, { exact: true });
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      const describedBy = await field.getAttribute('aria-describedby');
      assert.ok(describedBy, `${label} is described by its problem`);
      assert.equal(await page.locator(`[id="${describedBy}"]`).textContent(), problem);
      // The browser's own message (in English here) is never what the page shows.
      const native = await field.evaluate((element) => (element as HTMLInputElement).validationMessage);
      assert.equal(await form.getByText(native, { exact: true }).count(), 0);
    }
    assert.deepEqual(await axeViolations(page, { include: FORM }), []);

    // Each link takes the visitor to its field.
    for (const [label, problem] of problems) {
      await summary.getByRole('link', { name: problem }).click();
      assert.ok(await isFocused(form.getByLabel(label, { exact: true })), `${problem} focuses ${label}`);
    }
    // Fixing a field takes its line out of the summary.
    await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await summary.getByRole('link', { name: 'Name ist ein Pflichtfeld.' }).waitFor({ state: 'detached' });
    assert.equal(await summary.getByRole('link').count(), 3);

    // Then the message, sent: the panel is German too, and the answer's time is the German text's.
    await form.getByLabel('E-Mail', { exact: true }).fill('ada@example.com');
    await form.getByLabel('Betreff', { exact: true }).fill('Eine Frage');
    await form.getByLabel('Nachricht', { exact: true }).fill('Guten Tag, ich habe eine Frage zu Ihrem Projekt.');
    await form.getByRole('button', { name: 'Nachricht senden' }).click();
    const panel = form.getByRole('status');
    await panel.waitFor();
    assert.equal(await form.getByRole('alert').count(), 0, 'the summary is gone');
    assert.equal(await panel.locator('p').first().textContent(), 'Ihre Nachricht wurde sicher gesendet!');
    assert.match((await panel.textContent()) ?? '', new RegExp(`Vielen Dank, Ada Lovelace\\. ${TRANSLATIONS.de['contact.responseTime']}`));
    assert.equal(await invalidEvents(), 0);
    assert.equal(await page.locator('html').getAttribute('data-scheme'), 'light');
    assert.deepEqual(await axeViolations(page, { include: FORM }), []);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreignRequests, []);
    await close();
  });

  test("a message sent shows a panel naming the sender and the document's time to answer; sending again or failing later takes it away", async () => {
    const responseTime = 'I answer every message within a week, often sooner.';
    await publishDraft(
      suite.server,
      (document) => {
        (document.contact as Record<string, unknown>).responseTime = responseTime;
        document.languages = [];
      },
      // The page's document is a file of its own, which the page names (data-src).
      async () => {
        const html = await (await fetch(`${suite.server.url}/`)).text();
        const file = /data-src="([^"]+)"/.exec(html)?.[1];
        return !!file && (await (await fetch(`${suite.server.url}${file}`)).text()).includes(responseTime);
      },
    );
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    const form = await openForm(page, `${suite.server.url}/`, 'Contact form');
    const fill = async (name: string) => {
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Email', { exact: true }).fill('grace@example.com');
      await form.getByLabel('Subject', { exact: true }).fill('A role on our team');
      await form.getByLabel('Message', { exact: true }).fill('We would like to talk about a role.');
    };
    await fill('  Grace Hopper ');
    const answer = page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await answer).status(), 201);
    const panel = form.getByRole('status');
    await panel.waitFor();
    assert.equal(await panel.locator('p').first().textContent(), 'Your response has securely sent!');
    assert.equal(await panel.locator('p').nth(1).textContent(), `Thank you, Grace Hopper. ${responseTime}`);
    assert.equal(await panel.locator('bdi').textContent(), 'Grace Hopper', 'the name in its own direction');
    assert.ok(await isFocused(panel), 'the panel takes the focus, so it is seen and read out');
    assert.ok(await panel.isVisible());
    assert.ok(await above(panel, form.getByLabel('Name', { exact: true })), 'the emptied form is below it');
    for (const label of ['Name', 'Email', 'Subject', 'Message']) {
      assert.equal(await form.getByLabel(label, { exact: true }).inputValue(), '');
    }
    assert.deepEqual(await axeViolations(page, { include: FORM }), []);

    // Sending again, even an empty form, clears it.
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByRole('alert').waitFor();
    assert.equal(await panel.count(), 0);

    // So does typing a new message; and when that one fails (the server out of reach), only the failure shows.
    await fill('Grace Hopper');
    assert.equal(await form.getByRole('alert').count(), 0, 'typing again cleared the last outcome');
    await page.route('**/api/contact', (route) => route.abort('connectionrefused'));
    await form.getByRole('button', { name: 'Send Message' }).click();
    const failure = form.getByRole('alert').filter({ hasText: 'could not reach the server' });
    await failure.waitFor();
    assert.equal(await panel.count(), 0, 'no success line after a failure');
    assert.ok(await isFocused(failure));
    assert.equal(await form.getByLabel('Message', { exact: true }).inputValue(), 'We would like to talk about a role.');
    assert.deepEqual(await axeViolations(page, { include: FORM }), []);
    await page.unroute('**/api/contact');

    // A success after the failure shows the panel again, and the server's 422 after it takes it away.
    await form.getByRole('button', { name: 'Send Message' }).click();
    await panel.waitFor();
    assert.equal(await form.getByRole('alert').count(), 0);
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'validation_failed', message: 'x', fields: { email: 'must be a valid e-mail address' } } }),
      }),
    );
    await fill('Grace Hopper');
    await form.getByRole('button', { name: 'Send Message' }).click();
    const summary = form.getByRole('alert').filter({ hasText: 'Please correct the following:' });
    await summary.waitFor();
    assert.equal(await panel.count(), 0);
    await summary.getByRole('link', { name: 'Email must be a valid e-mail address.' }).click();
    assert.ok(await isFocused(form.getByLabel('Email', { exact: true })));
    assert.deepEqual(await axeViolations(page, { include: FORM }), []);
    // The failed requests are logged by the browser as console errors; nothing else is.
    assert.ok(errors.every((e) => /Failed to load resource|ERR_CONNECTION_REFUSED|422/.test(e)), errors.join('\n'));
    await close();
  });

  test("the owner writes when they reply in the editor's Contact part, and it is a text to translate", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=contact`);
    const field = page.getByLabel('When you reply', { exact: true });
    await field.waitFor();
    const hint = await field.getAttribute('aria-describedby');
    assert.ok(hint);
    assert.match((await page.locator(`[id="${hint}"]`).textContent()) ?? '', /once their message is sent/);
    await field.fill('I reply within two working days.');
    await page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 15_000 });
    const cookie = await ownerCookie(suite.server);
    const draft = (await (await fetch(`${suite.server.url}/api/content/draft`, { headers: { Cookie: cookie } })).json()) as {
      document: { contact: { responseTime: string } };
    };
    assert.equal(draft.document.contact.responseTime, 'I reply within two working days.');
    // Left empty, it is refused beside the field.
    await field.fill('');
    await page.getByText('When you reply must not be empty.', { exact: true }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    // A language lists it among the texts to translate.
    await field.fill('I reply within two working days.');
    await page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 15_000 });
    await page.goto(`${suite.server.url}/dashboard?view=page&part=languages`);
    await page.getByRole('heading', { level: 2, name: 'Languages' }).waitFor();
    await page.getByRole('combobox', { name: 'Add a language' }).fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    const german = page.getByRole('region', { name: 'German (de)' });
    const translation = german.getByLabel('Contact: when you reply, in German');
    await translation.waitFor();
    const original = await translation.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${original}"]`).textContent(), 'I reply within two working days.');
    assert.deepEqual(errors, []);
    await close();
  });
});
