/**
 * The contact form in a real browser against the real binary: a message reaches the database
 * (the Inbox, with its proof-of-work challenge solved unseen), Send pressed before the challenge
 * is solved waits for it, the server's 422 shows by the field, and simulated 500 and 429 answers
 * keep the visitor's text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations } from './helpers.ts';

const MESSAGE = {
  Name: 'Grace Hopper',
  Email: 'grace@example.com',
  Subject: 'Browser test <b>hello</b>',
  Message: 'Written in a real browser 🧪 with <i>markup</i> kept as text.',
};

async function openForm(page: Page, server: RunningServer) {
  await page.goto(server.url + '/');
  await hydrated(page);
  const form = page.getByRole('form', { name: 'Contact form' });
  await form.scrollIntoViewIfNeeded();
  return form;
}

async function fill(form: ReturnType<Page['getByRole']>, values: Record<string, string> = MESSAGE) {
  for (const [label, value] of Object.entries(values)) {
    await form.getByLabel(label, { exact: true }).fill(value);
  }
}

async function fieldValues(form: ReturnType<Page['getByRole']>) {
  const values: Record<string, string> = {};
  for (const label of Object.keys(MESSAGE)) values[label] = await form.getByLabel(label, { exact: true }).inputValue();
  return values;
}

describe('the contact form', () => {
  const suite = serverAndBrowser();

  test('a message is sent, acknowledged, cleared from the form and found in the inbox; so is a second one', async () => {
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const form = await openForm(page, suite.server);
    await page.waitForLoadState('networkidle');
    // Nothing of the spam check is loaded before the form is used.
    const spamCheck = (url: string) => /\/api\/contact\/challenge|\/assets\/(guard|pow-worker)-/.test(url);
    assert.deepEqual(requests.filter(spamCheck), []);

    const challenge = page.waitForResponse('**/api/contact/challenge');
    const started = page.waitForEvent('worker');
    await fill(form);
    assert.equal((await challenge).status(), 200);
    // Solved in a worker from our own origin while the visitor types, with nothing to see.
    const worker = await started;
    assert.ok(worker.url().startsWith(`${suite.server.url}/assets/pow-worker-`), worker.url());
    assert.equal(await form.getByRole('button').textContent(), 'Send Message');
    const answer = page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    const sent = await answer;
    assert.equal(sent.status(), 201);
    const body = sent.request().postDataJSON() as Record<string, unknown>;
    assert.equal(typeof body.token, 'string');
    assert.equal(typeof body.altcha, 'string');

    await form.getByRole('status').filter({ hasText: 'Your response has securely sent!' }).waitFor();
    assert.deepEqual(await fieldValues(form), { Name: '', Email: '', Subject: '', Message: '' });

    // A second message in the same visit carries proofs of its own (each is good for one message)
    // and reaches the Inbox too.
    await fill(form, { ...MESSAGE, Subject: 'One more thing', Message: 'A second message, same visit.' });
    const second = page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await second).status(), 201);
    const secondBody = (await second).request().postDataJSON() as Record<string, unknown>;
    assert.notEqual(secondBody.token, body.token, 'a token of its own');
    assert.notEqual(secondBody.altcha, body.altcha, 'a challenge of its own');
    await form.getByRole('status').filter({ hasText: 'Your response has securely sent!' }).waitFor();

    const exported = suite.server.cli(['messages', 'export', '--format', 'json']);
    assert.equal(exported.status, 0, exported.stderr);
    const documents = JSON.parse(exported.stdout) as Record<string, string>[];
    assert.equal(documents.length, 2, 'both stored, and not as spam (the export leaves spam out)');
    assert.equal(documents[1]?.subject, 'One more thing');
    assert.deepEqual(
      { name: documents[0]?.name, Email: documents[0]?.Email, subject: documents[0]?.subject, message: documents[0]?.message },
      { name: MESSAGE.Name, Email: MESSAGE.Email, subject: MESSAGE.Subject, message: MESSAGE.Message },
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(foreignRequests, []);
    await close();
  });

  test('Send pressed before the challenge is solved waits for it, shows the progress and succeeds', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    // A slow connection: the challenge arrives two seconds after the form is first used.
    await page.route('**/api/contact/challenge', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    const form = await openForm(page, suite.server);
    const quick = { ...MESSAGE, Subject: 'Sent at once', Message: 'Pressed Send as soon as I had typed.' };
    await fill(form, quick);
    const answer = page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    const waiting = form.getByRole('button', { name: /^Preparing… \d+%$/ });
    await waiting.waitFor();
    assert.ok(await waiting.isDisabled());
    assert.equal((await answer).status(), 201);
    await form.getByRole('status').filter({ hasText: 'Your response has securely sent!' }).waitFor();

    const exported = suite.server.cli(['messages', 'export', '--format', 'json']);
    assert.equal(exported.status, 0, exported.stderr);
    const documents = JSON.parse(exported.stdout) as Record<string, string>[];
    assert.ok(
      documents.some((d) => d.subject === quick.Subject),
      'in the inbox, not taken for spam for being quick',
    );
    assert.deepEqual(errors, []);
    await close();
  });

  test('while sending the button shows progress and cannot send twice; a 500 shows an error and keeps the text', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    let calls = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/contact', async (route) => {
      calls += 1;
      await held;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side.' } }),
      });
    });
    const form = await openForm(page, suite.server);
    await fill(form);
    await form.getByRole('button', { name: 'Send Message' }).click();
    const sending = form.getByRole('button', { name: 'Sending…' });
    await sending.waitFor();
    assert.ok(await sending.isDisabled());
    await form.getByLabel('Subject', { exact: true }).press('Enter'); // implicit submission: blocked
    release();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'went wrong on our side' }).waitFor();
    assert.equal(calls, 1, 'sent once');
    assert.ok(await form.getByRole('button', { name: 'Send Message' }).isEnabled());
    assert.ok(await alert.isVisible());
    assert.match((await alert.textContent()) ?? '', /not sent/);
    assert.deepEqual(await fieldValues(form), MESSAGE);
    assert.equal(await form.getByRole('status').count(), 0, 'no success line');
    await close();
  });

  test('a 429 says how long to wait and keeps the text', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Retry-After': '37' },
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'too_many_requests', message: 'Too many messages.' } }),
      }),
    );
    const form = await openForm(page, suite.server);
    await fill(form);
    await form.getByRole('button', { name: 'Send Message' }).click();
    const alert = form.getByRole('alert');
    await alert.filter({ hasText: 'wait 37 seconds' }).waitFor();
    assert.ok(await alert.isVisible());
    assert.deepEqual(await fieldValues(form), MESSAGE);
    await close();
  });

  test("the server's 422 is shown next to the field it names", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    const form = await openForm(page, suite.server);
    // The page checks the lengths itself before sending (see contact-outcome.test.ts); so that the
    // server's check is what answers, the subject grows past its bound on the way to the server.
    const tooLong = 's'.repeat(201);
    await page.route('**/api/contact', (route) =>
      route.continue({ postData: JSON.stringify({ ...(route.request().postDataJSON() as object), subject: tooLong }) }),
    );
    await fill(form);
    const answer = page.waitForResponse('**/api/contact');
    await form.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await answer).status(), 422);

    const subject = form.getByLabel('Subject', { exact: true });
    // Told from the value the visitor sees, which is short: the field is named as not valid.
    await form.getByText('Subject is not valid.').first().waitFor();
    assert.equal(await subject.getAttribute('aria-invalid'), 'true');
    const describedBy = await subject.getAttribute('aria-describedby');
    assert.ok(describedBy);
    assert.equal(await page.locator(`[id="${describedBy}"]`).textContent(), 'Subject is not valid.');
    // The summary above the fields takes the focus; its link takes the visitor to the field.
    const summary = form.getByRole('alert');
    assert.ok(await summary.evaluate((el) => el === document.activeElement), 'focus moves to the summary');
    await summary.getByRole('link', { name: 'Subject is not valid.' }).click();
    assert.ok(await subject.evaluate((el) => el === document.activeElement), 'the link focuses the field');
    assert.equal(await subject.inputValue(), MESSAGE.Subject, 'the text is kept');
    assert.deepEqual(await axeViolations(page, { include: 'form[aria-label="Contact form"]' }), []);
    // The failed request is logged by the browser as a console error; nothing else is.
    assert.ok(errors.every((e) => e.includes('422')), errors.join('\n'));
    await close();
  });
});
