import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPage, serverAndBrowser } from './harness.ts';

describe('the binary serves the React application', () => {
  const suite = serverAndBrowser();

  test('/ renders the portfolio with no console errors', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await page.goto(suite.server.url + '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    assert.deepEqual(errors, []);
    await close();
  });

  test('/dashboard shows Loading... before its chunk arrives', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    // Hold the dashboard chunk back so the fallback is observable, then let it through.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/dashboard-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(suite.server.url + '/dashboard', { waitUntil: 'commit' });
    await page.getByText('Loading...', { exact: true }).waitFor();
    release();
    await page.waitForFunction(() => !document.body.textContent?.includes('Loading...'));
    assert.deepEqual(errors, []);
    await close();
  });
});
