/** Browser tests of signing in and out: the login page, the redirects and the tabs kept in step. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';
import { axeViolations, EMAIL, fillLogin, PASSWORD } from './helpers.ts';

describe('signing in and out', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer();
    const created = server.cli(['owner', 'set', '--email', EMAIL], `${PASSWORD}\n`);
    assert.equal(created.status, 0, created.stderr);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('a visitor opening /dashboard lands on /login, and Back skips /dashboard', async () => {
    const { page, errors, close } = await openPage(browser, server);
    await page.goto(server.url + '/');
    const before = await page.evaluate(() => history.length);
    await page.goto(server.url + '/dashboard');
    await page.waitForURL(server.url + '/login');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    assert.equal(await page.evaluate(() => history.length), before + 1, 'the /dashboard entry was replaced');
    await page.goBack();
    await page.waitForURL(server.url + '/');
    assert.deepEqual(errors, [], 'no request of a visitor is answered 401 either');
    await close();
  });

  test('following the footer link to the dashboard lands on /login, and Back returns to /', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/');
    const before = await page.evaluate(() => history.length);
    await page.locator('footer').getByRole('link').last().click();
    await page.waitForURL(server.url + '/login');
    assert.equal(await page.evaluate(() => history.length), before + 1);
    await page.goBack();
    await page.waitForURL(server.url + '/');
    await close();
  });

  test('the login page has its spec parts and no axe violations', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await page.getByRole('img', { name: 'Portfolio logo' }).waitFor();
    assert.equal(await page.getByLabel('Email address').getAttribute('type'), 'email');
    const home = page.getByRole('link', { name: 'PORTFOLIO' });
    assert.equal(await home.getAttribute('href'), '/');

    assert.deepEqual(await axeViolations(page), []);
    await close();
  });

  test('the password toggle shows and hides the password', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    const input = page.getByLabel('Password', { exact: true });
    await input.fill('secret words');
    assert.equal(await input.getAttribute('type'), 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    assert.equal(await input.getAttribute('type'), 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    assert.equal(await input.getAttribute('type'), 'password');
    assert.equal(await input.inputValue(), 'secret words');
    await close();
  });

  test('Forgot password? tells how to reset it with the command', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    const command = page.getByText('portfolio owner set --email');
    assert.equal(await command.isVisible(), false);
    const toggle = page.getByRole('button', { name: 'Forgot password?' });
    await toggle.click();
    await command.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await close();
  });

  test('a wrong password shows the message in an alert and stays on /login', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    await fillLogin(page, EMAIL, 'not-the-right-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'The email or password is incorrect.');
    assert.equal(page.url(), server.url + '/login');
    await close();
  });

  test('a double click on Login sends one sign-in', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/session')) posts += 1;
    });
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('wrong-once-only-please');
    await page.getByRole('button', { name: 'Login' }).dblclick();
    await page.getByRole('alert').waitFor();
    assert.equal(posts, 1);
    await close();
  });

  test('signing in lands on /dashboard, a reload stays, and /login leads back to it', async () => {
    const { page, errors, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    await fillLogin(page, EMAIL, PASSWORD);
    await page.waitForURL(server.url + '/dashboard');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.equal(page.url(), server.url + '/dashboard');

    await page.goto(server.url + '/login');
    await page.waitForURL(server.url + '/dashboard');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.deepEqual(errors, [], 'no request of a visitor is answered 401 either');
    await close();
  });

  test('signing out in one tab signs the other tab out', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    const first = await context.newPage();
    await first.goto(server.url + '/login');
    await fillLogin(first, EMAIL, PASSWORD);
    await first.waitForURL(server.url + '/dashboard');
    const second = await context.newPage();
    await second.goto(server.url + '/dashboard');
    await second.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.waitForURL(server.url + '/login');
    await second.waitForURL(server.url + '/login');
    await second.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await context.close();
  });

  test('signing in in one tab takes the other tab from /login to the dashboard', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    const waiting = await context.newPage();
    await waiting.goto(server.url + '/login');
    await waiting.getByRole('heading', { name: 'Login to your account' }).waitFor();
    const first = await context.newPage();
    await first.goto(server.url + '/login');
    await fillLogin(first, EMAIL, PASSWORD);
    await first.waitForURL(server.url + '/dashboard');
    await waiting.waitForURL(server.url + '/dashboard');
    await context.close();
  });

  test('a sign-out elsewhere is noticed when the tab is used again', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    await fillLogin(page, EMAIL, PASSWORD);
    await page.waitForURL(server.url + '/dashboard');
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    // Another browser (no shared channel) signs out everywhere.
    const other = await openPage(browser, server);
    await other.page.goto(server.url + '/login');
    await fillLogin(other.page, EMAIL, PASSWORD);
    await other.page.waitForURL(server.url + '/dashboard');
    await other.page.getByRole('button', { name: 'Account' }).click();
    await other.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await other.page.waitForURL(server.url + '/login');
    await other.close();

    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForURL(server.url + '/login');
    await close();
  });

  test('the landing page downloads neither the login nor the dashboard code', async () => {
    const { page, close } = await openPage(browser, server);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    assert.ok(scripts.length > 0);
    assert.deepEqual(
      scripts.filter((url) => /\/assets\/(login|dashboard)-/.test(url)),
      [],
    );
    await close();
  });
});

describe('the sign-in throttle on the page', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer({ env: { PORTFOLIO_OWNER_EMAIL: EMAIL, PORTFOLIO_OWNER_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('after repeated failures the page says how long to wait', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/login');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await fillLogin(page, EMAIL, `wrong-password-${attempt}`);
      await page.getByRole('alert').filter({ hasText: 'incorrect' }).waitFor();
      await page.getByRole('button', { name: 'Login' }).waitFor();
    }
    await fillLogin(page, EMAIL, PASSWORD);
    const alert = page.getByRole('alert').filter({ hasText: 'Try again in' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /Try again in \d+ seconds/);
    assert.equal(page.url(), server.url + '/login');
    await close();
  });
});
