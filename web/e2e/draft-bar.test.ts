/**
 * Browser tests of the Page tab's bar: whether the draft is saved and whether the live page shows
 * it (or which changes are not live yet, by name), Publish disabled while there is nothing to
 * publish, the live page's links once published, and the bar in view (never over the focused
 * field) however far a long part is scrolled, from a phone's width to a desktop's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, openPage, serverAndBrowser } from './harness.ts';
import { axeViolations, OWNER_ENV, publishDraft, signIn } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

function bar(page: Page): Locator {
  return page.getByRole('region', { name: 'Draft and live page' });
}

function publishButton(page: Page): Locator {
  return bar(page).getByRole('button', { name: 'Publish', exact: true });
}

/** The editor's violations; the preview (the public page in a frame) has tests of its own. */
function editorViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { exclude: 'iframe' });
}

async function openEditor(page: Page, url: string, part: string) {
  await page.goto(`${url}/dashboard?view=page&part=${part}`);
  await page.getByRole('heading', { level: 2, name: new RegExp(`^${part}`, 'i') }).waitFor();
}

/** What the Publish button's `aria-describedby` says (hidden elements count, as for screen readers). */
function description(button: Locator): Promise<string> {
  return button.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );
}

/** Where an element is once the page stops scrolling (the page scrolls smoothly). */
async function settled(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = '';
  for (let tries = 0; tries < 100; tries += 1) {
    const box = (await locator.boundingBox())!;
    if (JSON.stringify(box) === last) return box;
    last = JSON.stringify(box);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${String(locator)} never stopped moving`);
}

async function nothingToPublish(page: Page) {
  await bar(page).getByText('The live page shows this draft', { exact: true }).waitFor();
  assert.equal(await publishButton(page).isDisabled(), true);
  assert.match(await description(publishButton(page)), /^Nothing to publish/);
}

describe('the draft and live bar', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('says there is nothing to publish, then names the one change, then links to the live page that shows it', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await openEditor(page, suite.server.url, 'profile');

    // Before an edit: the draft is the live page; nothing published yet, so no link.
    await nothingToPublish(page);
    await bar(page).getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor();
    assert.equal(await bar(page).getByRole('link', { name: 'View the live page' }).count(), 0);
    assert.deepEqual(await editorViolations(page), []);

    // One edit: one change, named as the form names it, and Publish enabled.
    const role = page.getByRole('region', { name: 'Profile' }).getByLabel('Role', { exact: true });
    await role.fill('Python developer');
    const summary = bar(page).getByText('1 change not yet live', { exact: true });
    await summary.waitFor();
    assert.equal(await publishButton(page).isDisabled(), false);
    assert.equal(await publishButton(page).getAttribute('aria-describedby'), null);
    await summary.click();
    const changes = bar(page).getByRole('list', { name: 'Changes not yet live' });
    assert.deepEqual(await changes.getByRole('listitem').allInnerTexts(), ['Profile: Role']);
    await bar(page).getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await editorViolations(page), []);
    // The change's link goes to its field.
    await role.evaluate((element) => (element as HTMLElement).blur());
    await changes.getByRole('link', { name: 'Profile: Role' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-profile-role');
    assert.equal(await changes.isVisible(), false, 'the list closes once a change is chosen');

    // Publish: the bar says the live page shows the draft, and links to it.
    await publishButton(page).click();
    await page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();
    await nothingToPublish(page);
    const live = bar(page).getByRole('link', { name: 'View the live page' });
    assert.equal(await live.getAttribute('href'), '/');
    assert.deepEqual(await editorViolations(page), []);
    const [visitor] = await Promise.all([page.context().waitForEvent('page'), live.click()]);
    await visitor.waitForLoadState();
    assert.equal(new URL(visitor.url()).pathname, '/');
    await visitor.getByText('Python developer').first().waitFor();
    await visitor.close();

    // A published language has its own link; a change made elsewhere shows on returning to the tab.
    await publishDraft(
      suite.server,
      (document) => {
        document.languages = [{ tag: 'de', published: true, texts: TRANSLATIONS.de, strings: {} }];
      },
      async () => (await fetch(`${suite.server.url}/de/`)).status === 200,
    );
    await page.reload();
    await nothingToPublish(page);
    const german = bar(page).getByRole('link', { name: 'View the live page in German' });
    assert.equal(await german.getAttribute('href'), '/de/');
    assert.deepEqual(errors, []);
    await close();
  });

  test('schedules the page for later: the bar says when, the versions list tags it, and the live page keeps its text until then', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await openEditor(page, suite.server.url, 'profile');
    const role = page.getByRole('region', { name: 'Profile' }).getByLabel('Role', { exact: true });
    await role.fill('Scheduled developer');
    await bar(page).getByText('1 change not yet live', { exact: true }).waitFor();
    await bar(page).getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });

    // A day ahead, on the minute, typed as the owner reads the clock (the browser is in the server's time zone, UTC).
    const moment = Math.ceil((Date.now() + 86_400_000) / 60_000) * 60_000;
    await bar(page).getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the page later?' });
    assert.equal(await dialog.getByRole('button', { name: 'Schedule the page' }).isDisabled(), true);
    assert.deepEqual(await editorViolations(page), []);
    await dialog.getByLabel('Publish on', { exact: true }).fill(new Date(moment).toISOString().slice(0, 16));
    await dialog.getByRole('button', { name: 'Schedule the page' }).click();
    await bar(page)
      .getByRole('status')
      .filter({ hasText: /^Scheduled for .+\. Until then, visitors see the page as it is live now\.$/ })
      .waitFor({ timeout: 60_000 });
    // Until then the live page is the one published before, and the versions list says what comes when.
    assert.ok(!(await (await fetch(`${suite.server.url}/`)).text()).includes('Scheduled developer'));
    await page.goto(`${suite.server.url}/dashboard?view=page&part=versions`);
    const versions = page.getByRole('table', { name: 'Published versions, newest first' });
    const newest = versions.getByRole('row').nth(1);
    await newest.getByText('scheduled', { exact: true }).waitFor();
    assert.equal(await newest.locator('time').getAttribute('datetime'), new Date(moment).toISOString());
    await versions.getByRole('row').nth(2).getByText('live', { exact: true }).waitFor();
    assert.deepEqual(await editorViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  for (const viewport of [
    { width: 360, height: 740 },
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`stays in view over a long part at ${viewport.width} px, never over the focused field`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport });
      await signIn(page, suite.server);
      await openEditor(page, suite.server.url, 'projects');
      await bar(page).getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor();
      const header = page.locator('header').first();

      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      await page.waitForFunction(() => window.scrollY > 0);
      const shown = await bar(page).boundingBox();
      const top = (await header.boundingBox())!;
      assert.ok(shown, 'the bar is drawn');
      assert.ok(Math.abs(shown.y - (top.y + top.height)) <= 1, `the bar sits below the header: ${shown.y} against ${top.y + top.height}`);
      assert.ok(shown.x >= 0 && shown.x + shown.width <= viewport.width + 0.5, `the bar fits the width: ${JSON.stringify(shown)}`);
      assert.ok(shown.y + shown.height < viewport.height / 2, `the bar leaves the screen to the fields: ${shown.height} px tall`);
      assert.equal(await publishButton(page).isVisible(), true);
      const button = (await publishButton(page).boundingBox())!;
      assert.ok(button.x + button.width <= viewport.width, 'Publish is on the screen');

      // A field above, focused (as by Shift+Tab), scrolls into view below the bar, not under it.
      const first = page.locator('#editor-part').locator('input, button, select, textarea').first();
      await first.focus();
      const field = await settled(first);
      const below = (await bar(page).boundingBox())!;
      assert.ok(field.y >= below.y + below.height, `the focused control (${field.y}) is below the bar (${below.y + below.height})`);
      assert.deepEqual(await editorViolations(page), []);
      assert.deepEqual(errors, []);
      await close();
    });
  }
});
