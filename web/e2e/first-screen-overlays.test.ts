/**
 * The visitor's first screen where applications arrive, and the pages around it, on the real
 * binary: in LinkedIn's in-app browser (iOS and Android) one overlay at a time, a slim bar that
 * takes at most 15 % of a 390×844 screen and never covers the hero's buttons, the language offer
 * waiting until the banner is gone; on iOS "Open in browser" copies the link and says how to open
 * Safari; the 404 page in the visitor's scheme (their choice, else the owner's) and the page's
 * language, with the site's navigation; on the Arabic page, numbers, addresses and the brand read
 * left to right.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, publishDraft } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

const SCREEN = { width: 390, height: 844 } as const;
const PHONE_OPTIONS: BrowserContextOptions = { viewport: SCREEN, isMobile: true, hasTouch: true };
const UA = {
  linkedinIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.30.1',
  linkedinAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.6778.39 Mobile Safari/537.36 [LinkedInApp]/4.1.1000',
};

/** The banner's and the offer's names, by the language they are drawn in. */
const BANNER = { en: 'Open in your browser', de: 'Im Browser öffnen' } as const;
const OFFER = { en: 'This page is also in English.', de: 'Diese Seite gibt es auch auf Deutsch.' } as const;

async function publishLanguages(server: RunningServer, tags: ('de' | 'ar')[]) {
  await publishDraft(
    server,
    (document) => {
      document.languages = tags.map((tag) => ({ tag, published: true, texts: TRANSLATIONS[tag], strings: {} }));
    },
    async () => (await fetch(`${server.url}/${tags.at(-1)}/`)).status === 200,
  );
}

/**
 * What the overlays named `names` cover of the screen (their boxes clipped to the viewport, as a
 * share of it), and, for each of the hero's buttons, whether it is what a tap at its centre meets.
 */
async function firstScreen(page: Page, names: readonly string[]) {
  return page.evaluate((labels) => {
    const width = window.innerWidth;
    const height = window.innerHeight;
    let covered = 0;
    for (const label of labels) {
      const element = document.querySelector(`section[aria-label="${label}"]`);
      if (!element) continue;
      const box = element.getBoundingClientRect();
      const w = Math.max(0, Math.min(box.right, width) - Math.max(box.left, 0));
      const h = Math.max(0, Math.min(box.bottom, height) - Math.max(box.top, 0));
      covered += w * h;
    }
    const buttons = [...document.querySelectorAll<HTMLAnchorElement>('#home a[href="#projects"], #home a[href="#contact"]')].map((link) => {
      const box = link.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      return { text: link.textContent, onScreen: y > 0 && y < height, reached: !!hit && link.contains(hit) };
    });
    return { share: covered / (width * height), buttons };
  }, names);
}

function assertClear(seen: Awaited<ReturnType<typeof firstScreen>>, what: string) {
  assert.ok(seen.share > 0, `${what}: an overlay is on the screen`);
  assert.ok(seen.share <= 0.15, `${what}: the overlays cover ${(seen.share * 100).toFixed(1)} % of the screen`);
  assert.equal(seen.buttons.length, 2, `${what}: the hero's two buttons`);
  // The first is on the first screen in every language; the second may wrap below it (German).
  assert.ok(seen.buttons[0]!.onScreen, `${what}: ${seen.buttons[0]!.text} is on the first screen`);
  for (const button of seen.buttons.filter((b) => b.onScreen)) {
    assert.ok(button.reached, `${what}: ${button.text} is not covered`);
  }
}

describe("the visitor's first screen and the pages around it", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });
  // German and Arabic published, as translated by hand.
  before(() => publishLanguages(suite.server, ['de', 'ar']));

  for (const [platform, userAgent] of Object.entries(UA)) {
    for (const [path, pageLanguage, browserLocale] of [
      ['/', 'en', 'de-DE'],
      ['/de/', 'de', 'en-US'],
    ] as const) {
      test(`in LinkedIn's browser on ${platform}, ${path} shows one slim overlay at a time, clear of the hero's buttons`, async () => {
        const { page, errors, close } = await openPage(suite.browser, suite.server, { ...PHONE_OPTIONS, userAgent, locale: browserLocale });
        await page.goto(suite.server.url + path);
        await hydrated(page);
        // The offer is in the other language: the browser's.
        const offerName = OFFER[pageLanguage === 'en' ? 'de' : 'en'];
        const banner = page.getByRole('region', { name: BANNER[pageLanguage] });
        const offer = page.getByRole('region', { name: offerName });
        await banner.waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await offer.count(), 0, 'the offer waits while the banner shows');
        assertClear(await firstScreen(page, [BANNER[pageLanguage], offerName]), `${path} with the banner`);
        assert.deepEqual(await axeViolations(page), []);

        // Once the banner is dismissed, the offer takes its place.
        await banner.getByRole('button', { name: pageLanguage === 'en' ? 'Dismiss' : 'Schließen' }).click();
        await offer.waitFor();
        assert.equal(await banner.count(), 0);
        assertClear(await firstScreen(page, [BANNER[pageLanguage], offerName]), `${path} with the offer`);
        assert.deepEqual(await axeViolations(page), []);
        assert.deepEqual(errors, []);
        await close();
      });
    }
  }

  test('on iOS "Open in browser" copies the link and says how to open it in Safari, and the bar stays slim', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, {
      ...PHONE_OPTIONS,
      userAgent: UA.linkedinIos,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.goto(suite.server.url + '/');
    await hydrated(page);
    const banner = page.getByRole('region', { name: BANNER.en });
    await banner.getByRole('button', { name: 'Open in browser' }).click();
    const status = banner.getByRole('status');
    await status.getByText('Link copied. Tap ⋯ and choose Open in Safari, or paste the link in Safari.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), suite.server.url + '/');
    assertClear(await firstScreen(page, [BANNER.en]), 'after the copy');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test('on Android "Open in browser" is a link that asks the system to open the page in the browser', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { ...PHONE_OPTIONS, userAgent: UA.linkedinAndroid });
    await page.goto(suite.server.url + '/');
    await hydrated(page);
    const open = page.getByRole('region', { name: BANNER.en }).getByRole('link', { name: 'Open in browser' });
    assert.match((await open.getAttribute('href')) ?? '', /^intent:\/\/127\.0\.0\.1:\d+\/#Intent;scheme=http;action=android\.intent\.action\.VIEW;/);
    await close();
  });

  test("a 404 is drawn in the visitor's light scheme, with the site's navigation, a plain heading and a way home", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, PHONE_OPTIONS);
    // The visitor chose light on the page earlier; their system is dark.
    await page.addInitScript(() => localStorage.setItem('portfolio:scheme', 'light'));
    const response = await page.goto(suite.server.url + '/no-such-page');
    assert.equal(response?.status(), 404);
    const heading = page.getByRole('heading', { level: 1, name: "This page doesn't exist" });
    await heading.waitFor();
    assert.equal(await page.locator('html').getAttribute('data-scheme'), 'light');
    const colours = await page.evaluate(() => ({
      page: getComputedStyle(document.querySelector('#root > div')!).backgroundColor,
      heading: getComputedStyle(document.querySelector('h1')!).color,
    }));
    assert.deepEqual(colours, { page: 'rgb(249, 250, 251)', heading: 'rgb(3, 7, 18)' });
    // The spec's line, small, above the heading.
    const line = page.getByText('Unexpected Application Error!', { exact: true });
    assert.equal(await line.evaluate((element) => element.tagName), 'P');
    assert.ok((await line.boundingBox())!.y < (await heading.boundingBox())!.y);
    // The site's navigation leads to the portfolio's sections; the scheme switch is there.
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await navigation.getByRole('button', { name: 'Open menu' }).click();
    assert.equal(await navigation.getByRole('link', { name: 'Projects' }).getAttribute('href'), '/#projects');
    assert.equal(await navigation.locator('a[href*="#"][aria-current]').count(), 0, 'no section is current on another page');
    await page.keyboard.press('Escape');
    assert.ok(await page.getByRole('button', { name: 'Light scheme' }).isVisible());
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Back to the portfolio' }).click();
    await page.waitForURL(suite.server.url + '/');
    await page.getByRole('heading', { level: 1, name: new RegExp(profile.name) }).waitFor();
    assert.deepEqual(
      errors.filter((e) => !e.includes('status of 404')),
      [],
    );
    await close();
  });

  test('a 404 under /de/ is in German, its navigation and its way home lead to /de/', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    const response = await page.goto(suite.server.url + '/de/gibt-es-nicht');
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Diese Seite gibt es nicht' }).waitFor();
    await page.getByText('Unerwarteter Anwendungsfehler!', { exact: true }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    const navigation = page.getByRole('navigation', { name: 'Hauptnavigation' });
    assert.equal(await navigation.getByRole('link', { name: 'Projekte' }).getAttribute('href'), '/de/#projects');
    assert.equal(await page.getByRole('link', { name: 'Zurück zum Portfolio' }).getAttribute('href'), '/de/');
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });

  test('on the Arabic page the phone number, the e-mail addresses and the brand read left to right', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, PHONE_OPTIONS);
    await page.goto(suite.server.url + '/ar/');
    await hydrated(page);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    const phone = page.locator('#contact a[href^="tel:"]');
    await phone.scrollIntoViewIfNeeded();
    assert.equal(await phone.getAttribute('dir'), 'ltr');
    assert.equal((await phone.textContent())?.trim(), '+91 90000 00000');
    // As drawn: each group of digits to the right of the one before it.
    const groups = await phone.evaluate((link) => {
      // The link's text is one span (sections/contact.tsx), so that an e-mail wraps only before its @.
      const text = (link.querySelector('span') ?? link).firstChild!;
      return ['+91', '90000', '00000'].map((group, index) => {
        const start = index === 2 ? text.textContent!.lastIndexOf(group) : text.textContent!.indexOf(group);
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + group.length);
        return range.getBoundingClientRect().left;
      });
    });
    assert.ok(groups[0]! < groups[1]! && groups[1]! < groups[2]!, `the groups from left to right: ${groups.join(', ')}`);
    assert.equal(await page.locator('#contact a[href^="mailto:"]').getAttribute('dir'), 'ltr');
    assert.equal(await page.locator('#about bdi[dir="ltr"]').textContent(), 'alex.morgan@example.com');
    assert.equal(await page.locator('#contact input[type="email"]').getAttribute('dir'), 'ltr');
    // The brand: the owner's name, then its dot, to its right.
    const brand = await page.getByRole('banner').locator('a bdi').first().evaluate((bdi) => {
      const range = document.createRange();
      range.selectNodeContents(bdi.firstChild!);
      return { name: range.getBoundingClientRect().right, dot: bdi.querySelector('span')!.getBoundingClientRect().left, text: bdi.textContent };
    });
    assert.equal(brand.text, `${profile.name}.`);
    assert.ok(brand.dot >= brand.name - 1, `the dot after the name: ${JSON.stringify(brand)}`);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test("a 404 follows the owner's light default when the visitor has not chosen", async () => {
    await publishDraft(
      suite.server,
      (document) => {
        (document.appearance as { scheme: string }).scheme = 'light';
      },
      async () => (await (await fetch(`${suite.server.url}/no-such-page`)).text()).includes('content="light"'),
    );
    const { page, close } = await openPage(suite.browser, suite.server);
    await page.goto(suite.server.url + '/de/no-such-page');
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('data-scheme'), 'light');
    // The app's own pages keep their dark look.
    await page.goto(suite.server.url + '/login');
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('data-scheme'), null);
    await close();
  });
});
