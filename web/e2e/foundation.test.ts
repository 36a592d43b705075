import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, startServer, type RunningServer } from './harness.ts';

describe('the binary serves the React application', () => {
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('/ renders the portfolio with no console errors', async () => {
    const { page, errors, close } = await openPage(browser, server);
    await page.goto(server.url + '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    assert.deepEqual(errors, []);
    await close();
  });

  test('/dashboard shows Loading... before its chunk arrives', async () => {
    const { page, errors, close } = await openPage(browser, server);
    // Hold the dashboard chunk back so the fallback is observable, then let it through.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/dashboard-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url + '/dashboard', { waitUntil: 'commit' });
    await page.getByText('Loading...', { exact: true }).waitFor();
    release();
    await page.waitForFunction(() => !document.body.textContent?.includes('Loading...'));
    assert.deepEqual(errors, []);
    await close();
  });

  test('an unknown route shows the router error page', async () => {
    const { page, close } = await openPage(browser, server);
    await page.goto(server.url + '/no/such/page');
    await page.getByText('Unexpected Application Error!').waitFor();
    await close();
  });
});
