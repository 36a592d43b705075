/**
 * Errors as a visitor meets them, on the real binary: an unknown address is a real 404 with the
 * designed error page, and a page that fails while rendering shows the same page, never the error
 * itself. The render failures are asked for by `window.portfolioTestRenderError`, set by an init
 * script (see src/components/test-render-error.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConsoleMessage, Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { openPage, serverAndBrowser } from './harness.ts';
import { axeViolations, EMAIL, OWNER_ENV, signIn } from './helpers.ts';

const HEADING = 'Unexpected Application Error!';
/** The 404's plain heading; the spec's line above it. */
const NOT_FOUND = "This page doesn't exist";
/** What a developer would see in React Router's default error screen, and a stack trace's marks. */
const DEVELOPER_TEXT = /Hey developer|ErrorBoundary|errorElement|404 Not Found|asked for by a browser test|\.js:\d+|at [A-Za-z]+ \(/;

/** Every console message of a page, of any level, with where it came from. */
function recordConsole(page: Page): ConsoleMessage[] {
  const messages: ConsoleMessage[] = [];
  page.on('console', (message) => messages.push(message));
  return messages;
}

async function assertNoDeveloperText(page: Page) {
  const text = (await page.locator('body').innerText()).trim();
  assert.doesNotMatch(text, DEVELOPER_TEXT);
  assert.equal(await page.locator('pre, code').count(), 0, 'no code or stack trace on the page');
}

describe('errors a visitor can trust', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('/no-such-page answers 404 with the designed page, a working link home and a quiet console', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    const messages = recordConsole(page);
    const url = suite.server.url + '/no-such-page';
    const response = await page.goto(url);
    assert.equal(response?.status(), 404);
    assert.equal(response?.headers()['x-robots-tag'], 'noindex');

    await page.getByRole('heading', { level: 1, name: NOT_FOUND }).waitFor();
    await page.getByText(HEADING, { exact: true }).waitFor();
    await page.getByRole('banner').getByRole('link', { name: profile.name }).waitFor();
    await assertNoDeveloperText(page);
    assert.match(await page.title(), /^Page not found/);
    // Drawn with the site's stylesheet: the page's dark background, and the accent bar under the heading.
    const style = await page.evaluate(() => {
      const heading = document.querySelector('h1')!;
      return {
        page: getComputedStyle(document.querySelector('#root > div')!).backgroundColor,
        site: getComputedStyle(document.documentElement).backgroundColor,
        bar: getComputedStyle(heading, '::after').backgroundColor,
        font: getComputedStyle(heading).fontFamily,
      };
    });
    assert.notEqual(style.site, 'rgba(0, 0, 0, 0)', 'the stylesheet is applied');
    assert.equal(style.page, style.site);
    assert.notEqual(style.bar, 'rgba(0, 0, 0, 0)', 'the accent bar under the heading');
    assert.match(style.font, /system-ui/);
    assert.deepEqual(await axeViolations(page), []);

    // Only the browser's own line about the 404 document: nothing from the page itself.
    const others = messages.filter(
      (m) => !(m.type() === 'error' && m.text().includes('status of 404') && m.location().url === url),
    );
    assert.deepEqual(
      others.map((m) => `${m.type()}: ${m.text()}`),
      [],
    );
    assert.deepEqual(errors.filter((e) => !e.includes('status of 404')), []);

    await page.getByRole('link', { name: 'Back to the portfolio' }).click();
    await page.waitForURL(suite.server.url + '/');
    await page.getByRole('heading', { level: 1, name: new RegExp(profile.name) }).waitFor();
    await close();
  });

  test('any address that is neither a page nor a file is a 404; the pages are not', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    for (const path of ['/no/such/page', '/login/extra', '/Projects']) {
      const response = await page.goto(suite.server.url + path);
      assert.equal(response?.status(), 404, path);
      await page.getByRole('heading', { level: 1, name: NOT_FOUND }).waitFor();
    }
    for (const [path, heading] of [
      ['/', new RegExp(profile.name)],
      ['/login', /Login to your account/],
    ] as const) {
      const response = await page.goto(suite.server.url + path);
      assert.equal(response?.status(), 200, path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      assert.equal(await page.getByRole('heading', { name: HEADING }).count(), 0, path);
      assert.equal(await page.getByRole('heading', { name: NOT_FOUND }).count(), 0, path);
    }
    await close();
  });

  test('a malformed fragment (/#%) leaves the landing page whole', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    for (const fragment of ['#%', '#%E0%A4%A', '#contact%']) {
      await page.goto('about:blank'); // a fresh load each time, not a same-document hash change
      const response = await page.goto(suite.server.url + '/' + fragment);
      assert.equal(response?.status(), 200, fragment);
      await page.getByRole('heading', { level: 1, name: new RegExp(profile.name) }).waitFor();
      await page.locator('#contact').waitFor({ state: 'attached' });
      assert.equal(await page.getByRole('heading', { name: HEADING }).count(), 0, fragment);
    }
    assert.deepEqual(errors, []);
    await close();
  });

  test('a page that throws while rendering shows the same page without a stack trace', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await page.addInitScript(() => {
      window.portfolioTestRenderError = 'page';
    });
    for (const path of ['/', '/login']) {
      const response = await page.goto(suite.server.url + path);
      assert.equal(response?.status(), 200, path);
      await page.getByRole('heading', { level: 1, name: HEADING }).waitFor();
      await page.getByText('Something went wrong on this page.').waitFor();
      await page.getByRole('button', { name: 'Reload the page' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Back to the portfolio' }).getAttribute('href'), '/');
      await assertNoDeveloperText(page);
      assert.deepEqual(await axeViolations(page), [], path);
    }
    // Caught by the error boundary: never an uncaught exception.
    assert.deepEqual(
      errors.filter((e) => e.startsWith('pageerror')),
      [],
    );
    await close();
  });

  test('a render error in the dashboard is caught there, keeps the owner signed in and reloads into the inbox', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);

    // The dashboard fails once (the next load of this tab), then works again.
    await page.addInitScript(() => {
      if (location.pathname === '/dashboard' && !sessionStorage.getItem('render-error-shown')) {
        sessionStorage.setItem('render-error-shown', 'yes');
        window.portfolioTestRenderError = 'dashboard';
      }
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: HEADING }).waitFor();
    await page.getByText('Something went wrong on this page.').waitFor();
    await page.getByText(`You are still signed in as ${EMAIL}.`).waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'PORTFOLIO', exact: true }).waitFor();
    await assertNoDeveloperText(page);
    assert.deepEqual(await axeViolations(page), []);
    assert.equal(page.url(), suite.server.url + '/dashboard', 'still on the dashboard');
    const session = await page.request.get(suite.server.url + '/api/session');
    assert.equal(session.status(), 200, 'the session is still valid');

    await page.getByRole('button', { name: 'Reload the dashboard' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.equal(page.url(), suite.server.url + '/dashboard');
    await close();
  });
});
