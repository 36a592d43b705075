/**
 * Browser tests of the page's header as a visitor meets it, with German and Arabic published:
 * the row fits the screen from 320 to 1440 px in each language (the navigation folds into the
 * menu where its texts need it, the language button shows its icon only where even that is short
 * of room), the language menu names each language in itself and works by keyboard and without
 * JavaScript, the current item follows the section in view, and the cursor dot never covers or
 * takes what the pointer points at, on the page and in the dashboard.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, serverAndBrowser } from './harness.ts';
import { hydrated, waitUntilScrolledTo } from './page-support.ts';
import { axeViolations, OWNER_ENV, publishLanguages, signIn } from './helpers.ts';

const WIDTHS = [320, 360, 390, 768, 1024, 1280, 1440];
const PATHS = ['/', '/de/', '/ar/'];
const SECTIONS = ['home', 'about', 'skills', 'projects', 'experience', 'contact'];
const NAMES: Record<string, string> = { '/': 'English', '/de/': 'Deutsch', '/ar/': 'العربية' };
const LOCALES: Record<string, string> = { '/': 'en-US', '/de/': 'de-DE', '/ar/': 'ar' };


/** The header's controls a visitor can see, with their boxes, and the state the row was fitted to. */
function headerControls(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('header')!;
    const controls = [...header.querySelectorAll('nav a, nav button')]
      .filter((element) => element.checkVisibility({ visibilityProperty: true }))
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { name: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(), left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      })
      // Inside the closed popover or the closed menu panel nothing is drawn.
      .filter((box) => box.right > box.left);
    // What runs past the screen's edge, if anything: the first few, for a failing test's message.
    const wide = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
      .slice(0, 6)
      .map((element) => `${element.tagName.toLowerCase()} "${element.textContent?.slice(0, 40)}"`);
    return { fit: header.dataset.fit ?? null, controls, scrollWidth: document.documentElement.scrollWidth, wide };
  });
}

/** The current item of the main navigation, by its link's target. */
const current = (page: Page) =>
  page.evaluate(() => document.querySelector('header nav [aria-current="true"]')?.getAttribute('href') ?? null);

async function waitForCurrent(page: Page, id: string) {
  await page
    .waitForFunction((target) => document.querySelector('header nav [aria-current="true"]')?.getAttribute('href') === `#${target}`, id, {
      timeout: 15_000,
    })
    .catch(async () => assert.fail(`#${id} never became current (it is ${await current(page)})`));
}

describe('the header', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });
  before(async () => publishLanguages(suite.server));

  test('from 320 to 1440 px on /, /de/ and /ar/: no sideways scroll, every control inside the screen on one line', async () => {
    const fitted: string[] = [];
    for (const width of WIDTHS) {
      for (const path of PATHS) {
        // A reader of the page's language, so no offer of another one covers the header (the offer has tests of its own).
        const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: { width, height: 800 }, locale: LOCALES[path] });
        await page.goto(`${suite.server.url}${path}`);
        await hydrated(page);
        await page.waitForFunction(() => document.querySelector('header')?.dataset.fit !== undefined);
        const { fit, controls, scrollWidth, wide } = await headerControls(page);
        fitted.push(`${path} ${width}: ${fit || 'full'}`);
        const where = `${path} at ${width} px (${fit || 'full'})`;
        assert.ok(scrollWidth <= width, `${where}: the page is ${scrollWidth} px wide (${wide.join(', ')})`);
        // The brand, the language menu, the scheme toggle and the menu button (or the items and the resume).
        assert.ok(controls.length >= 4, `${where}: ${JSON.stringify(controls)}`);
        for (const control of controls) {
          assert.ok(control.left >= 0 && control.right <= width, `${where}: "${control.name}" runs off the screen (${control.left}–${control.right})`);
          assert.ok(control.top >= 0 && control.bottom <= 64, `${where}: "${control.name}" leaves the bar's one line (${control.top}–${control.bottom})`);
        }
        const menu = page.getByRole('button', { name: /^(Open menu|Menü öffnen|افتح القائمة)$/ });
        const items = page.locator('header nav a[href="#about"]');
        assert.notEqual(await menu.isVisible(), await items.isVisible(), `${where}: either the items or the menu button`);
        if (width < 900) assert.ok(await menu.isVisible(), `${where}: the menu below 900 px`);
        await page.getByRole('button', { name: NAMES[path]!, exact: true }).waitFor();
        assert.deepEqual(errors, []);
        await close();
      }
    }
    console.log(`the header's row: ${fitted.join('; ')}`);
    // English keeps the full navigation from 1280 px with two more languages published.
    assert.ok(fitted.includes('/ 1280: full') || fitted.includes('/ 1280: short'), fitted.join('; '));
  });

  test('the language menu names each language in itself, navigates, and works by keyboard', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    const button = page.getByRole('button', { name: 'Deutsch', exact: true });
    await button.click();
    const list = page.getByRole('list', { name: 'Sprachen' });
    await list.waitFor();
    for (const [name, lang] of [
      ['English', 'en'],
      ['Deutsch', 'de'],
      ['العربية', 'ar'],
    ] as const) {
      assert.equal(await list.getByRole('link', { name }).getAttribute('lang'), lang);
    }
    assert.equal(await list.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current'), 'page');
    assert.deepEqual(await axeViolations(page), []);
    await list.getByRole('link', { name: 'العربية' }).click();
    await page.waitForURL('**/ar/');
    await hydrated(page);

    // By keyboard: Enter opens, Tab reaches the languages, Escape closes and returns to the button.
    await page.setViewportSize({ width: 1280, height: 800 });
    const arabic = page.getByRole('button', { name: 'العربية', exact: true });
    await arabic.focus();
    await page.keyboard.press('Enter');
    const languages = page.getByRole('list', { name: 'اللغات' });
    await languages.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'English');
    await page.keyboard.press('Escape');
    await languages.waitFor({ state: 'hidden' });
    assert.equal(await arabic.evaluate((element) => element === document.activeElement), true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.server.url}/`);
    assert.deepEqual(errors, []);
    await close();
  });

  test('without JavaScript the language menu still opens and links to each language', async () => {
    const browser = await launchBrowser();
    const { page, close } = await openPage(browser, suite.server, { viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    await page.goto(`${suite.server.url}/de/`);
    await page.getByRole('button', { name: 'Deutsch', exact: true }).click();
    await page.getByRole('list', { name: 'Sprachen' }).getByRole('link', { name: 'English' }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await close();
    await browser.close();
  });

  test('at 1024 px in German the navigation is in the menu, reached and used by keyboard', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: { width: 1024, height: 768 } });
    await page.goto(`${suite.server.url}/de/`);
    await hydrated(page);
    const button = page.getByRole('button', { name: 'Menü öffnen' });
    await button.waitFor();
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('button', { name: 'Menü schließen' }).getAttribute('aria-expanded'), 'true');
    const link = page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Werdegang' });
    await link.focus();
    await page.keyboard.press('Enter');
    await waitUntilScrolledTo(page, 'experience');
    await waitForCurrent(page, 'experience');
    assert.equal(await link.isVisible(), false, 'choosing an item closes the menu');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  for (const [name, options] of [
    ['a laptop', { viewport: { width: 1280, height: 800 } }],
    ['a phone, with reduced motion', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, reducedMotion: 'reduce' as const }],
  ] as const) {
    test(`on ${name} the current item follows the section in view, and a clicked one holds until its scroll ends`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server, options);
      await page.goto(`${suite.server.url}/`);
      await hydrated(page);
      assert.equal(await current(page), '#home');
      for (const id of SECTIONS) {
        await page.evaluate((target) => document.getElementById(target)!.scrollIntoView({ behavior: 'instant', block: 'start' }), id);
        await waitForCurrent(page, id);
        const items = await page.locator('header nav [aria-current="true"]').count();
        assert.equal(items, 1, 'one current item');
      }
      // Back at the top, Home again (it used to stay on the last one chosen).
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await waitForCurrent(page, 'home');

      // A click: the item is current at once, through the scroll, and after it.
      if (options.viewport.width < 900) await page.getByRole('button', { name: 'Open menu' }).click();
      const passed: string[] = [];
      await page.evaluate(() => {
        const seen = ((window as unknown as { __seen: string[] }).__seen = [] as string[]);
        new MutationObserver(() => {
          const href = document.querySelector('header nav [aria-current="true"]')?.getAttribute('href');
          if (href) seen.push(href);
        }).observe(document.querySelector('header nav')!, { attributes: true, subtree: true, attributeFilter: ['aria-current'] });
      });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects', exact: true }).click();
      assert.equal(await current(page), '#projects');
      await waitUntilScrolledTo(page, 'projects');
      await page.waitForTimeout(1_200);
      passed.push(...(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)));
      assert.ok(passed.every((href) => href === '#projects'), `only Projects was current on the way: ${passed.join(', ')}`);
      assert.equal(await current(page), '#projects');
      // And observation resumes: scrolling back up makes Home current, not Projects.
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await waitForCurrent(page, 'home');
      assert.deepEqual(errors, []);
      await close();
    });
  }

  describe('the cursor dot', () => {
    /** The dot's box, the element at the pointer, and whether the dot shows. */
    const atPointer = (page: Page, x: number, y: number) =>
      page.evaluate(
        ([px, py]) => {
          const dot = document.querySelector<HTMLElement>('[data-cursor-dot]')!;
          const box = dot.getBoundingClientRect();
          const hit = document.elementFromPoint(px!, py!);
          return {
            covers: box.left <= px! && px! <= box.right && box.top <= py! && py! <= box.bottom,
            hit: hit?.closest('a, button')?.textContent?.trim() ?? hit?.tagName ?? '',
            visible: dot.dataset.visible === 'true',
          };
        },
        [x, y],
      );

    async function moveTo(page: Page, locator: ReturnType<Page['locator']>) {
      await locator.scrollIntoViewIfNeeded();
      const box = (await locator.boundingBox())!;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x - 30, y - 10);
      await page.mouse.move(x, y, { steps: 3 });
      return [x, y] as const;
    }

    test('on the page: beside the pointer, never what a click meets; hidden over a field and while typing', async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server);
      await page.goto(`${suite.server.url}/`);
      await hydrated(page);
      const [x, y] = await moveTo(page, page.getByRole('link', { name: 'View My Work' }));
      await page.locator('[data-cursor-dot][data-visible="true"]').waitFor();
      const seen = await atPointer(page, x, y);
      assert.equal(seen.covers, false, 'the dot is beside the hotspot');
      assert.equal(seen.hit, 'View My Work', 'a click at the pointer meets the button');

      const field = page.locator('#contact input').first();
      await field.scrollIntoViewIfNeeded();
      await moveTo(page, field);
      await page.locator('[data-cursor-dot][data-visible="false"]').waitFor();
      await field.click();
      await moveTo(page, page.getByRole('button', { name: 'Send Message' }));
      await page.locator('[data-cursor-dot][data-visible="true"]').waitFor();
      await page.keyboard.type('a');
      await page.locator('[data-cursor-dot][data-visible="false"]').waitFor();
      assert.deepEqual(errors, []);
      await close();
    });

    test('in the dashboard: beside the pointer, never on the scheme or the language buttons it used to cover', async () => {
      const { page, close } = await openPage(suite.browser, suite.server);
      await signIn(page, suite.server);
      await page.goto(`${suite.server.url}/dashboard?view=page&part=languages`);
      const add = page.getByRole('button', { name: 'Add language' });
      await add.waitFor();
      // The editor settles first (its draft's status and notices above the form may still move the
      // button on a loaded machine): the button where it was a quarter of a second ago.
      for (let tries = 0, last = ''; tries < 40; tries += 1) {
        const box = JSON.stringify(await add.boundingBox());
        if (box === last) break;
        last = box;
        await page.waitForTimeout(250);
      }
      const [x, y] = await moveTo(page, add);
      await page.locator('[data-cursor-dot][data-visible="true"]').waitFor();
      const seen = await atPointer(page, x, y);
      assert.equal(seen.covers, false, 'the dot is beside the hotspot');
      assert.equal(seen.hit, 'Add language');
      await close();
    });

    test('on the 404 page too (drawn outside the site chrome): beside the pointer, a click at the pointer goes home', async () => {
      const { page, close } = await openPage(suite.browser, suite.server);
      const response = await page.goto(`${suite.server.url}/ar/no-such-page`);
      assert.equal(response?.status(), 404);
      const home = page.getByRole('main').getByRole('link');
      await home.waitFor();
      const [x, y] = await moveTo(page, home);
      await page.locator('[data-cursor-dot][data-visible="true"]').waitFor();
      assert.equal(await page.locator('[data-cursor-dot]').count(), 1);
      const seen = await atPointer(page, x, y);
      assert.equal(seen.covers, false, 'the dot is beside the hotspot');
      assert.equal(await page.locator('[data-cursor-dot]').evaluate((dot) => getComputedStyle(dot).pointerEvents), 'none');
      await page.mouse.click(x, y);
      await page.waitForURL(`${suite.server.url}/ar/`);
      await close();
    });

    test('under reduced motion it still marks the pointer, and shows and hides at once, with no fade', async () => {
      const { page, close } = await openPage(suite.browser, suite.server, { reducedMotion: 'reduce' });
      await page.goto(`${suite.server.url}/`);
      await hydrated(page);
      await moveTo(page, page.getByRole('link', { name: 'View My Work' }));
      const dot = page.locator('[data-cursor-dot][data-visible="true"]');
      await dot.waitFor();
      const style = await dot.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { opacity: computed.opacity, transition: parseFloat(computed.transitionDuration) };
      });
      assert.equal(style.opacity, '1');
      assert.ok(style.transition < 0.001, `no fade: ${style.transition}s`);
      await page.keyboard.press('Shift');
      await page.locator('[data-cursor-dot][data-visible="false"]').waitFor();
      // Hidden at once: its transition is 0.01 ms (read above), so it is gone within the next frames.
      // How many frames a loaded machine takes to draw them varies (two were not always enough): the
      // test waits for the hidden dot itself, and the missing fade is the duration checked above.
      await page.waitForFunction(() => getComputedStyle(document.querySelector('[data-cursor-dot]')!).opacity === '0', undefined, {
        timeout: 10_000,
      });
      await close();
    });
  });
});
