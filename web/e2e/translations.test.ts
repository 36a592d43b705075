/**
 * Browser tests of translating without fighting the owner, against the real server: dates, names
 * and places marked "same as English" in one step (a German page published with the rest filled
 * in shows the default's dates, and follows them); images named by a thumbnail and where they are
 * used; the missing texts listed compactly, each a button to its field; the default language's
 * fixed texts changed under readable names and shown on `/`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, publishDraft, signIn } from './helpers.ts';

async function openLanguages(page: Page, server: RunningServer) {
  await signIn(page, server);
  await page.goto(`${server.url}/dashboard?view=page&part=languages`);
  await page.getByRole('heading', { level: 2, name: 'Languages' }).waitFor();
}

async function allSaved(page: Page) {
  await page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });
}

/** Publishes the saved draft as the Publish button does, and waits until `path` answers with `text`. */
async function publishSaved(server: RunningServer, path: string, text: string) {
  const cookie = await ownerCookie(server);
  const answer = await fetch(`${server.url}/api/content/publish`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url } });
  assert.equal(answer.status, 200, await answer.text());
  for (let tries = 0; tries < 300; tries += 1) {
    const page = await fetch(`${server.url}${path}`);
    if (page.status === 200 && (await page.text()).includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`${path} never showed ${text}`);
}

const draftDocument = async (server: RunningServer) =>
  ((await (await fetch(`${server.url}/api/content/draft`, { headers: { Cookie: await ownerCookie(server) } })).json()) as {
    document: { experience: { date: string; place: string }[]; languages?: { same?: string[] }[] };
  }).document;

describe('translating without fighting the owner', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('German is published after marking dates, names and places the same; its page shows the default dates', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await openLanguages(page, suite.server);
    await page.getByRole('combobox', { name: 'Add a language' }).fill('de');
    await page.getByRole('button', { name: 'Add language' }).click();
    const german = page.getByRole('region', { name: 'German (de)' });
    await german.waitFor();

    // The missing texts: a count and a compact list, each entry a button to its field.
    const missing = german.getByRole('list', { name: 'Missing in German' });
    await german.getByText(/^\d+ texts are missing before German can be published:$/).waitFor();
    assert.ok((await missing.getByRole('listitem').count()) <= 7, 'a few named, then a button for the rest');
    await missing.getByRole('button', { name: 'Profile: summary' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-languages-0-texts-profile-summary');
    await missing.getByRole('button', { name: /^Show all \d+$/ }).click();
    // Focus stays in the list, on the first entry the button showed.
    await page.waitForFunction(() => document.activeElement?.closest('ul')?.getAttribute('aria-label') === 'Missing in German');
    await missing.getByRole('button', { name: 'Job 2: title' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-languages-0-texts-experience-1-title');
    await missing.getByRole('button', { name: 'Profile photo' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-languages-0-texts-media-0-alt');

    // Images by their thumbnail and where they are used, never by their id.
    const translations = german.locator('[id$="-texts"]');
    const photo = translations.locator('div:has(> div > #field-languages-0-texts-media-0-alt)').locator('img');
    await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await photo.elementHandle());
    await german.getByLabel('Image of project “Portfolio”, in German').waitFor();
    assert.equal(await german.getByText(/Image “/).count(), 0, 'no image is named by its id');

    // One step: every date, place and project name the same as in English.
    const oneStep = german.getByRole('button', { name: 'Use the English dates, names and places' });
    await oneStep.click();
    await oneStep.evaluate((button) => button === document.activeElement || Promise.reject(new Error('focus left the button')));
    assert.ok(await german.getByRole('checkbox', { name: 'Job 1: dates: Same as in English' }).isChecked());
    assert.equal(await german.getByLabel('Job 1: dates, in German').count(), 0, 'nothing to type for a date');
    // Per field: the first project's name is translated after all.
    await german.getByRole('checkbox', { name: 'Project 1: title: Same as in English' }).uncheck();
    await german.getByLabel('Project 1: title, in German').fill('Mein Portfolio');

    // The rest filled in.
    const fields = translations.locator('input[id*="-texts-"]:not([type=checkbox]), textarea[id*="-texts-"]');
    const count = await fields.count();
    assert.ok(count > 15, `${count} fields left to translate`);
    for (let i = 0; i < count; i += 1) {
      const field = fields.nth(i);
      if (!(await field.inputValue())) await field.fill(`Deutsch ${i + 1}`);
    }
    await german.getByText('Every text is translated.').waitFor();
    await german.getByLabel('Publish German at /de/').check();
    await allSaved(page);
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);

    const draft = await draftDocument(suite.server);
    const date = draft.experience[0]!.date;
    assert.ok(draft.languages?.[0]?.same?.includes('experience[0].date'));
    await publishSaved(suite.server, '/de/', 'Mein Portfolio');
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    await page.getByText(date, { exact: true }).first().waitFor();
    await page.getByText(draft.experience[0]!.place, { exact: true }).first().waitFor();
    await page.getByText('Mein Portfolio', { exact: true }).first().waitFor();
    assert.deepEqual(await axeViolations(page), []);

    // The default language's date changes: the German page follows it, with nothing to translate.
    await publishDraft(
      suite.server,
      (document) => void ((document.experience as { date: string }[])[0]!.date = '2024 - 2026'),
      async () => (await (await fetch(`${suite.server.url}/de/`)).text()).includes('2024 - 2026'),
    );
    assert.deepEqual(errors, []);
    await close();
  });

  test('a fixed text of the default language is changed under its readable name and shown on /', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await openLanguages(page, suite.server);
    await page.getByRole('button', { name: 'Fixed texts in English: navigation, buttons, form messages' }).click();
    // A part of the page at a time.
    const parts = page.getByRole('group', { name: 'Part of the page' });
    await parts.getByRole('button', { name: 'Contact form' }).click();
    await page.getByLabel('Contact form: the message after sending', { exact: true }).waitFor();
    await parts.getByRole('button', { name: 'Hero' }).click();
    assert.equal(await parts.getByRole('button', { name: 'Hero' }).getAttribute('aria-pressed'), 'true');
    const button = page.getByLabel('Hero: button to the projects', { exact: true });
    assert.equal(await button.inputValue(), 'View My Work', 'the text the page shows now');
    const section = page.locator('#fixed-texts-default');
    assert.equal(await section.getByText('hero.viewWork').count(), 0, 'no raw key');
    await button.fill('See what I built');
    await allSaved(page);
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);
    await publishSaved(suite.server, '/', 'See what I built');
    await page.goto(`${suite.server.url}/`);
    await hydrated(page);
    await page.getByRole('link', { name: 'See what I built' }).waitFor();
    assert.deepEqual(errors, []);
    await close();
  });
});
