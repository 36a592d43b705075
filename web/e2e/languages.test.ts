/**
 * Browser tests of the page in several languages, against the real server: the owner adds German
 * and Arabic in the editor, translates and publishes them; `/de/` and `/ar/` are pre-rendered in
 * their language (Arabic right to left, its layout mirrored), linked by the switch, `hreflang`
 * and the sitemap; an incomplete language is refused with its missing fields named; a browser
 * that prefers German is offered the German page on `/`, never sent there; the contact form's
 * errors on `/de/` are German.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated, settledBrotliBytes } from './page-support.ts';
import { axeViolations, DESKTOP_CHROME, OWNER_ENV, ownerCookie, publishDraft, signIn } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

const GERMAN_ROLE = TRANSLATIONS.de['profile.role'];
const ARABIC_ROLE = 'مطور ويب';

async function openLanguages(page: Page, server: RunningServer) {
  await signIn(page, server);
  await page.goto(`${server.url}/dashboard?view=page&part=languages`);
  await page.getByRole('heading', { level: 2, name: 'Languages' }).waitFor();
}

async function addLanguage(page: Page, tag: string, name: string): Promise<Locator> {
  await page.getByRole('combobox', { name: 'Add a language' }).fill(tag);
  await page.getByRole('button', { name: 'Add language' }).click();
  const region = page.getByRole('region', { name: `${name} (${tag})` });
  await region.waitFor();
  return region;
}

/** Fills every translation of a language: `role` for the role, `prefix` and the field's number for the rest. */
async function translate(region: Locator, role: string, prefix: string) {
  const fields = region.locator('input[id*="-texts-"]:not([type=checkbox]), textarea[id*="-texts-"]');
  const count = await fields.count();
  assert.ok(count > 20, `${count} fields to translate`);
  for (let i = 0; i < count; i += 1) {
    const field = fields.nth(i);
    const id = (await field.getAttribute('id')) ?? '';
    await field.fill(id.endsWith('-texts-profile-role') ? role : `${prefix} ${i + 1}`);
  }
}

async function allSaved(page: Page) {
  try {
    await page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });
  } catch (error) {
    console.log('STATUS', await page.getByRole('status').allInnerTexts(), await page.locator('.field-error, [role=alert]').allInnerTexts());
    throw error;
  }
}

async function publish(page: Page) {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft?' });
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();
}

/**
 * Publishes, through the API, the default document with these languages added, translated by
 * hand (`fixtures/translations.json`: German and Arabic as long as real translations are).
 */
async function publishTranslated(server: RunningServer, tags: ('de' | 'ar')[]) {
  await publishDraft(
    server,
    (document) => {
      document.languages = tags.map((tag) => ({ tag, published: true, texts: TRANSLATIONS[tag], strings: {} }));
    },
    async () => (await fetch(`${server.url}/${tags.at(-1)}/`)).status === 200,
  );
}

/** Where an element is across the page, from the left edge: its centre's x. */
async function centre(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is drawn');
  return box.x + box.width / 2;
}

describe('the page in several languages', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the owner adds German and Arabic, translates and publishes them; each has its page, Arabic mirrored', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await openLanguages(page, suite.server);
    const german = await addLanguage(page, 'de', 'German');
    const arabic = await addLanguage(page, 'ar', 'Arabic');

    // Arabic, published before it is translated: refused, and the missing fields are named.
    await arabic.getByLabel('Publish Arabic at /ar/').check();
    const missing = arabic.getByRole('list', { name: 'Missing in Arabic' });
    await missing.getByText('Profile: role', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: /^Not saved/ }).waitFor({ timeout: 15_000 });
    await page.getByText(/languages\[1\]\.texts\.profile\.role|Profile: role, in Arabic/).first().waitFor();
    await arabic.getByLabel('Publish Arabic at /ar/').uncheck();
    await allSaved(page);

    // Side by side: the default text beside each translation's field.
    const roleField = german.getByLabel('Profile: role, in German');
    assert.equal(await roleField.getAttribute('lang'), 'de');
    await translate(german, GERMAN_ROLE, 'Deutsch');
    await translate(arabic, ARABIC_ROLE, 'نص');
    assert.equal(await arabic.getByLabel('Profile: role, in Arabic').getAttribute('dir'), 'rtl');
    await german.getByText('Every text is translated.').waitFor();
    await arabic.getByText('Every text is translated.').waitFor();
    await german.getByLabel('Publish German at /de/').check();
    await arabic.getByLabel('Publish Arabic at /ar/').check();
    await allSaved(page);
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);
    await publish(page);

    // /de/: German texts, its own language, and the switch to the others.
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    await page.getByText(GERMAN_ROLE, { exact: true }).first().waitFor();
    // The section's heading is the owner's German; the navigation's link the built-in table's.
    assert.match(await page.locator('#about-title').innerText(), /^Deutsch \d+$/);
    await page.getByRole('heading', { level: 3, name: 'Berufserfahrung' }).waitFor();
    await page.getByRole('link', { name: 'Lebenslauf herunterladen' }).first().waitFor();
    const head = await page.locator('head').innerHTML();
    for (const [lang, path] of [
      ['en', '/'],
      ['de', '/de/'],
      ['ar', '/ar/'],
      ['x-default', '/'],
    ] as const) {
      assert.match(head, new RegExp(`<link rel="alternate" hreflang="${lang}" href="[^"]*${path.replace(/\//g, '\\/')}"`), lang);
    }
    assert.ok(!(await page.content()).includes(ARABIC_ROLE), 'the German page holds no Arabic text');
    // The language menu: a button naming the page's language in itself, a list naming each in itself.
    await page.getByRole('button', { name: 'Deutsch', exact: true }).click();
    const languages = page.getByRole('list', { name: 'Sprachen' });
    assert.equal(await languages.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current'), 'page');
    assert.equal(await languages.getByRole('link', { name: 'العربية' }).getAttribute('lang'), 'ar');

    // The desktop layout on / (the text left of the photo), then mirrored on /ar/.
    await page.goto(`${suite.server.url}/`);
    await hydrated(page);
    const englishTitle = await centre(page.getByRole('heading', { level: 1 }));
    const englishPhoto = await centre(page.locator('#home img').first());
    assert.ok(englishTitle < englishPhoto, 'in English the title is left of the photo');
    await page.getByRole('button', { name: 'English', exact: true }).click();
    await page.getByRole('list', { name: 'Languages' }).getByRole('link', { name: 'العربية' }).click();
    await page.waitForURL('**/ar/');
    await hydrated(page);
    assert.equal(await page.locator('html').getAttribute('lang'), 'ar');
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await page.getByText(ARABIC_ROLE, { exact: true }).first().waitFor();
    // A fixed text from the built-in Arabic table (the sections' headings are the owner's).
    await page.getByRole('heading', { level: 3, name: 'معلومات التواصل' }).waitFor();
    const arabicTitle = await centre(page.getByRole('heading', { level: 1 }));
    const arabicPhoto = await centre(page.locator('#home img').first());
    assert.ok(arabicTitle > arabicPhoto, `in Arabic the title is right of the photo (${arabicTitle} vs ${arabicPhoto})`);
    const brand = await centre(page.getByRole('navigation').getByRole('link').first());
    assert.ok(brand > 640, 'the brand sits at the right end of the navigation');
    assert.deepEqual(await axeViolations(page), []);

    const sitemap = await (await fetch(`${suite.server.url}/sitemap.xml`)).text();
    for (const path of ['/de/', '/ar/']) assert.ok(sitemap.includes(`${path}</loc>`), `the sitemap lists ${path}`);
    assert.match(sitemap, /hreflang="x-default"/);
    // The one refused save (Arabic published while incomplete) is the browser's only console error.
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
    await close();
  });

  test('a browser that prefers German is offered /de/ on / and stays on /', async () => {
    await publishTranslated(suite.server, ['de']);
    const { page, errors, close } = await openPage(suite.browser, suite.server, { locale: 'de-DE' });
    await page.goto(`${suite.server.url}/`);
    await hydrated(page);
    const offer = page.getByRole('region', { name: 'Diese Seite gibt es auch auf Deutsch.' });
    await offer.waitFor();
    assert.equal(new URL(page.url()).pathname, '/', 'never redirected');
    assert.equal(await offer.getAttribute('lang'), 'de');
    await offer.getByRole('button', { name: 'Nein, danke' }).click();
    await offer.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/');
    // On the German page itself nothing is offered.
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    await page.waitForTimeout(300);
    assert.equal(await page.getByRole('region', { name: /auf Deutsch/ }).count(), 0);
    assert.deepEqual(errors, []);
    await close();
  });

  test('a contact error on /de/ is shown in German', async () => {
    await publishTranslated(suite.server, ['de']);
    const { page, close } = await openPage(suite.browser, suite.server, { locale: 'de-DE' });
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    const form = page.getByRole('form', { name: 'Kontaktformular' });
    await form.scrollIntoViewIfNeeded();
    const subject = form.getByLabel('Betreff', { exact: true });
    await subject.evaluate((input) => input.removeAttribute('maxlength'));
    await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await form.getByLabel('E-Mail', { exact: true }).fill('ada@example.com');
    await subject.fill('s'.repeat(201));
    await form.getByLabel('Nachricht', { exact: true }).fill('Guten Tag, ich habe eine Frage zu Ihrem Projekt.');
    // The page's own check, before anything is sent (contact-outcome.test.ts has the rest).
    await form.getByRole('button', { name: 'Nachricht senden' }).click();
    await form.getByText('Betreff darf höchstens 200 Zeichen lang sein.').first().waitFor();
    await form.getByRole('alert').filter({ hasText: 'Bitte korrigieren Sie Folgendes:' }).waitFor();
    await close();
  });

  test('an unknown address under /de/ and /ar/ shows the error page in that language, with a way back to its page', async () => {
    await publishTranslated(suite.server, ['de', 'ar']);
    const { page, close } = await openPage(suite.browser, suite.server);
    const answer = await page.goto(`${suite.server.url}/de/gibt-es-nicht`);
    assert.equal(answer?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Diese Seite gibt es nicht' }).waitFor();
    await page.getByText('Unerwarteter Anwendungsfehler!', { exact: true }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    assert.equal(await page.title(), 'Seite nicht gefunden · Alex Morgan');
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Zurück zum Portfolio' }).click();
    await page.waitForURL(`${suite.server.url}/de/`);

    await page.goto(`${suite.server.url}/ar/no-such-page`);
    await page.getByRole('heading', { level: 1, name: 'هذه الصفحة غير موجودة' }).waitFor();
    await page.getByText('خطأ غير متوقع في التطبيق!', { exact: true }).waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await page.getByRole('link', { name: 'العودة إلى معرض الأعمال' }).getAttribute('href'), '/ar/');

    // The default language's keeps the spec's line.
    await page.goto(`${suite.server.url}/no-such-page`);
    await page.getByRole('heading', { level: 1, name: "This page doesn't exist" }).waitFor();
    await page.getByText('Unexpected Application Error!', { exact: true }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    await close();
  });

  test('a visit to /de/ counts in the insights as one to / does', async () => {
    await publishTranslated(suite.server, ['de']);
    const pageViews = async () => {
      const response = await fetch(`${suite.server.url}/api/insights?days=7`, { headers: { Cookie: await ownerCookie(suite.server) } });
      return ((await response.json()) as { totals: { pageViews: number } }).totals.pageViews;
    };
    const before = await pageViews();
    const { page, close } = await openPage(suite.browser, suite.server, { userAgent: DESKTOP_CHROME });
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    await close();
    let after = before;
    // Counts are written every few seconds.
    for (let i = 0; i < 100 && after === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await pageViews();
    }
    assert.equal(after, before + 1);
  });

  // The budget of budget.test.ts, on the build's `/`, holds for every language's page as the server
  // renders it: German runs about a fifth longer than English, and Arabic's letters take two bytes.
  test('each language\'s page fits the first round trip: /, /de/ and /ar/ at most 13 KB as sent (Brotli), its CSS the same', async () => {
    await publishTranslated(suite.server, ['de', 'ar']);
    // The inline stylesheet (its budget: budget.test.ts) is the same in every language.
    const style = async (path: string) => /<style>[\s\S]*?<\/style>/.exec(await (await fetch(`${suite.server.url}${path}`)).text())?.[0];
    const english = await style('/');
    assert.ok(english, '/ has its stylesheet inline');
    assert.equal(await style('/de/'), english);
    assert.equal(await style('/ar/'), english);
    // With a language published, each page adds the rules of the language switch and of right to
    // left, which the English-only page goes without (its budget: budget.test.ts).
    for (const path of ['/', '/de/', '/ar/']) {
      const sheets = [...(await (await fetch(`${suite.server.url}${path}`)).text()).matchAll(/<style>([\s\S]*?)<\/style>/g)];
      assert.equal(sheets.length, 2, `${path} has two inline sheets`);
      assert.match(sheets[1]![1]!, /^\.lang-button\{.*\[dir=rtl\] \.mirror-rtl\{/);
    }
    const sizes: Record<string, number> = {};
    for (const path of ['/', '/de/', '/ar/']) {
      sizes[path] = await settledBrotliBytes(`${suite.server.url}${path}`, 13 * 1024);
    }
    console.log(`HTML with Brotli, in three languages: ${JSON.stringify(sizes)} bytes`);
    for (const [path, bytes] of Object.entries(sizes)) assert.ok(bytes <= 13 * 1024, `${path} is ${bytes} bytes with Brotli`);
  });
});
