/**
 * The landing page as it is sent: the rules its HTML uses inline (allowed by their hash in the
 * CSP), its sections in the HTML, hydrated without the router once it is drawn. Without JavaScript it is complete and
 * readable; with it, React takes over every section without a console message, without replacing
 * a single element the server sent, and without moving anything.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { DESKTOP, PHONE, openPage, serverAndBrowser } from './harness.ts';
import { contrast, drawnState, drawnWith, fontFetched, hydrated, twoFrames } from './page-support.ts';

/** The sections the navigation links to, in order. */
const SECTIONS = ['home', 'about', 'skills', 'projects', 'experience', 'contact'];

/**
 * Installed before the page's own scripts: sums layout shifts, and records every element that is
 * removed from the server's markup under #root (a hydration mismatch makes React throw the
 * server's nodes away and draw its own).
 */
const WATCH = `
  window.__layoutShift = 0;
  window.__removed = [];
  window.__shifted = [];
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return String(node && node.nodeName);
    return node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (node.className && typeof node.className === 'string' ? '.' + node.className.trim().split(/\\s+/).slice(0, 3).join('.') : '');
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShift += entry.value;
      for (const source of entry.sources || []) {
        const from = source.previousRect, to = source.currentRect;
        window.__shifted.push(Math.round(performance.now()) + 'ms ' + describe(source.node) + ' ' + [from.x, from.y, from.width, from.height].join(',') + ' -> ' + [to.x, to.y, to.width, to.height].join(','));
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver((records) => {
    for (const record of records) {
      if (!record.target.closest || !record.target.closest('#root')) continue;
      for (const node of record.removedNodes) {
        if (node.nodeType === 1) window.__removed.push(node.outerHTML.slice(0, 120));
      }
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** What `recordTransitions` notes: each transition that started, and those still running after the page's own listeners. */
interface Transitions {
  __transitions: { started: string[]; left: string[] };
}

/**
 * Notes every transition that starts (inside `within`, when given) before the page's own listeners
 * (on the document, on the way down) see its event, and whether it is still running after them (on
 * the way up), in `window.__transitions`. (No named inner function: the test runner's transform
 * would wrap it in a helper the page lacks.)
 */
async function recordTransitions(page: Page, within: string | null = null): Promise<void> {
  await page.addInitScript((selector) => {
    const log: Transitions['__transitions'] = { started: [], left: [] };
    Object.assign(window, { __transitions: log });
    const starting = new Map<Event, Animation[]>();
    addEventListener('transitionrun', (event) => starting.set(event, (event.target as Element).getAnimations({ subtree: true })), true);
    addEventListener('transitionrun', (event) => {
      const target = event.target as Element;
      if (selector !== null && !target.closest(selector)) return;
      const entry = `${target.className} ${event.propertyName}`;
      log.started.push(entry);
      if ((starting.get(event) ?? []).some((animation) => animation.playState === 'running')) log.left.push(entry);
      starting.delete(event);
    });
  }, within);
}

interface Watch {
  __layoutShift: number;
  __removed: string[];
  __shifted: string[];
}

/** The text colour of `selector`'s first match and the first opaque background behind it, in sRGB. */
async function textAndBackground(page: Page, selector: string): Promise<{ color: string; background: string }> {
  return page.locator(selector).first().evaluate((element) => {
    let node: Element | null = element;
    let background = 'rgb(255, 255, 255)';
    while (node) {
      const value = getComputedStyle(node).backgroundColor;
      if (value !== 'transparent' && !/rgba\(.*, 0\)$/.test(value)) {
        background = value;
        break;
      }
      node = node.parentElement;
    }
    // Computed colours may be lab() or oklch(): a canvas turns them into sRGB.
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    // (No named helper here: the test runner's transform would name it with a function the page lacks.)
    const [color, behind] = [getComputedStyle(element).color, background].map((value) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = value;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return `rgb(${r}, ${g}, ${b})`;
    });
    return { color: color!, background: behind! };
  });
}

describe('the landing page, sent whole and hydrated in place', () => {
  const suite = serverAndBrowser();

  for (const viewport of [DESKTOP, PHONE]) {
    test(`without JavaScript, / is complete and styled by its inline stylesheet and the whole one (${viewport.width} px)`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { javaScriptEnabled: false, viewport });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      const response = await page.goto(suite.server.url + '/', { waitUntil: 'load' });
      assert.equal(response?.status(), 200);

      // Every section, with its heading and text, and the footer.
      await page.getByRole('heading', { level: 1, name: new RegExp(profile.name) }).waitFor();
      for (const id of SECTIONS) {
        const section = page.locator(`section#${id}`);
        assert.equal(await section.count(), 1, `#${id}`);
        // Its rendered text: the sections after the first screen are drawn once near the screen.
        await section.scrollIntoViewIfNeeded();
        await drawnState(page, `section#${id} > *`);
        assert.ok((await section.innerText()).trim().length > 40, `#${id} has its text`);
        if (id !== 'home') assert.equal(await section.getByRole('heading', { level: 2 }).count() >= 1, true, `#${id} heading`);
      }
      await page.getByRole('contentinfo').getByRole('link', { name: profile.name, exact: true }).waitFor();
      for (const label of ['Name', 'Email', 'Subject', 'Message']) {
        assert.ok(await page.getByLabel(label, { exact: true }).isVisible(), `the form's ${label} field`);
      }
      const photo = page.locator('#home img').first();
      assert.ok(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the hero photo');

      // Styled, by the inline sheet the CSP allowed (a blocked sheet has no rules) and the whole
      // stylesheet, which the page links in a <noscript> (the inline one has the first screen's
      // rules alone).
      const sheets = await page.evaluate(() =>
        [...document.styleSheets].map((sheet) => ({ href: sheet.href, rules: sheet.cssRules.length })),
      );
      assert.equal(sheets.length, 2, JSON.stringify(sheets));
      assert.equal(sheets[0]!.href, null, 'the first sheet is inline');
      assert.ok(sheets[0]!.rules > 20, `the inline sheet applies: ${sheets[0]!.rules} rules`);
      assert.match(sheets[1]!.href ?? '', /\/assets\/index-[^/]+\.css$/, 'the whole stylesheet');
      assert.ok(sheets[1]!.rules > sheets[0]!.rules, `the whole stylesheet applies: ${sheets[1]!.rules} rules`);
      const layout = await page.evaluate(() => ({
        navigation: getComputedStyle(document.querySelector('header')!).position,
        h1: Number.parseFloat(getComputedStyle(document.querySelector('h1')!).fontSize),
        body: Number.parseFloat(getComputedStyle(document.body).fontSize),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      }));
      assert.equal(layout.navigation, 'fixed', 'the navigation is laid out by the stylesheet');
      assert.ok(layout.h1 >= layout.body * 1.5, `a large heading: ${layout.h1} px over ${layout.body} px`);
      assert.equal(layout.overflow, 0, 'nothing overflows sideways');
      // Readable: body text and headings stand out from their backgrounds (WCAG AA).
      for (const selector of ['h1', '#about p', '#contact h2', 'footer p']) {
        const { color, background } = await textAndBackground(page, selector);
        const ratio = contrast(color, background);
        assert.ok(ratio >= 4.5, `${selector}: contrast ${ratio.toFixed(2)} (${color} on ${background})`);
      }

      // Nothing but the page itself, its images and the whole stylesheet: no script is fetched.
      assert.deepEqual(
        requested.filter((path) => /\.(css|js)$/.test(path)).map((path) => /^\/assets\/index-[^/]+\.css$/.test(path)),
        [true],
        requested.join(', '),
      );
      assert.deepEqual(messages, [], 'no console message (a CSP refusal would be one)');
      assert.deepEqual(errors, []);
      await close();
    });
  }

  for (const [viewport, reducedMotion] of [
    [DESKTOP, 'reduce'],
    [PHONE, 'reduce'],
    [PHONE, 'no-preference'],
  ] as const) {
    test(`with JavaScript, / hydrates in place: no console message, no element replaced, no shift (${viewport.width} px, motion ${reducedMotion})`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport, reducedMotion });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      const scripts: string[] = [];
      const requested: string[] = [];
      page.on('request', (request) => {
        requested.push(new URL(request.url()).pathname);
        if (request.resourceType() === 'script' || request.resourceType() === 'stylesheet') {
          scripts.push(new URL(request.url()).pathname);
        }
      });
      await page.addInitScript(WATCH);
      await page.goto(suite.server.url + '/', { waitUntil: 'load' });

      // Every section is hydrated, those in the lazily loaded chunk too: React has its fiber on them.
      await page.waitForFunction(
        (ids) =>
          ids.every((id) => {
            const section = document.getElementById(id);
            return !!section && Object.keys(section).some((key) => key.startsWith('__reactFiber'));
          }),
        SECTIONS,
        { timeout: 10_000 },
      );
      // Let effects, images and the typewriter run, then read what moved.
      await page.waitForTimeout(1500);
      const watch = await page.evaluate(() => {
        const w = window as unknown as Watch;
        return { shift: w.__layoutShift, removed: w.__removed, shifted: w.__shifted };
      });

      assert.deepEqual(messages, [], 'no console message of any kind (hydration errors and warnings included)');
      assert.deepEqual(errors, []);
      assert.deepEqual(watch.removed, [], 'hydration kept every element the server sent');
      const shifted = `cumulative layout shift ${watch.shift}: ${watch.shifted.join('; ')}`;
      if (reducedMotion === 'reduce') assert.equal(watch.shift, 0, shifted);
      // With motion, the typed text moves only the caret after it (Lighthouse reports 0 too).
      else assert.ok(watch.shift < 0.001, shifted);
      // The landing page's code only: neither the router's chunk nor any stylesheet but the site's
      // whole one (the inline sheet holds only the rules the HTML uses), fetched with the sections.
      assert.ok(scripts.length >= 3, `the entry, the hydration and the lazily hydrated sections: ${scripts.join(', ')}`);
      assert.deepEqual(
        scripts.filter((path) => /\/(app|login|dashboard)-[^/]+\.js$/.test(path)),
        [],
        scripts.join(', '),
      );
      assert.deepEqual(
        scripts.filter((path) => path.endsWith('.css')).map((path) => /^\/assets\/index-[^/]+\.css$/.test(path)),
        [true],
        scripts.join(', '),
      );
      // React's code and the whole stylesheet are requested only once the first screen is on the
      // display: after the photo's paint as the browser reports it (Element Timing), which is the
      // time Lighthouse takes for the largest paint on a phone.
      const order = await page.evaluate(async () => {
        // Element Timing entries are only read through an observer (of the buffered ones here).
        const photo = await new Promise<PerformanceEntry | undefined>((resolve) => {
          // (No named function in here: the test runner's transform would wrap it in a helper the page lacks.)
          new PerformanceObserver((list) =>
            resolve(list.getEntries().find((entry) => (entry as PerformanceEntry & { identifier?: string }).identifier === 'photo')),
          ).observe({ type: 'element', buffered: true });
          setTimeout(() => resolve(undefined), 1000);
        });
        const late = performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/(hydrate-landing-[^/]+\.js|index-[^/]+\.css)$/.test(entry.name));
        return {
          shown: (photo as (PerformanceEntry & { renderTime: number }) | undefined)?.renderTime,
          late: late.map((entry) => ({ name: entry.name, start: entry.startTime })),
        };
      });
      assert.ok(order.shown !== undefined && order.shown > 0, 'the photo was shown, and its paint reported');
      assert.equal(order.late.length, 2, JSON.stringify(order.late));
      for (const entry of order.late) {
        assert.ok(
          entry.start >= order.shown!,
          `${entry.name} requested at ${entry.start} ms, before the photo was shown at ${order.shown} ms`,
        );
      }
      // The visit's beacon waits for the hydration too, off the first screen's network. (The
      // headless browser's visit is sent, though the server does not count it.)
      const hydration = requested.findIndex((path) => /^\/assets\/hydrate-landing-[^/]+\.js$/.test(path));
      const beacon = requested.indexOf('/api/insights/events');
      assert.ok(hydration >= 0 && beacon > hydration, `the beacon after the hydration's code: ${requested.join(', ')}`);
      // The photo, the largest thing on a phone's first screen, is decoded for the frame that
      // first shows the page, not in a later one (`decoding="async"` let the page paint without it).
      assert.equal(await page.locator('#home img[fetchpriority="high"]').getAttribute('decoding'), null);
      // Hydrated means working: a project filter of the lazily hydrated sections answers.
      const frontend = page.locator('#projects').getByRole('button', { name: 'Frontend' });
      await frontend.click();
      assert.equal(await frontend.getAttribute('aria-pressed'), 'true');
      await close();
    });
  }

  test('a first view fetches the web font once painted and stays in the fallback, whenever the font comes: nothing moves (375 px)', async () => {
    for (const late of [true, false]) {
      // A first view asks for the font once it is painted, for the next view (src/web-font.ts):
      // held back here, as a slow network would, and not.
      const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: PHONE, reducedMotion: 'reduce' });
      let asked = 0;
      await page.route(/\/assets\/inter-[^/]+\.woff2$/, async (route) => {
        asked += 1;
        if (late) await new Promise((resolve) => setTimeout(resolve, 2_000));
        await route.continue();
      });
      await page.addInitScript(WATCH);
      await page.goto(suite.server.url + '/');
      await hydrated(page);
      // The font has come, and the whole stylesheet.
      await fontFetched(page);
      await page.waitForFunction(
        () => performance.getEntriesByType('resource').some((entry) => /\/assets\/index-[^/]+\.css$/.test(entry.name)),
        undefined,
        { timeout: 60_000 },
      );
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(500);
      assert.equal(asked, 1, 'the font is asked for once');
      const watch = await page.evaluate(() => {
        const w = window as unknown as Watch;
        return { shift: w.__layoutShift, shifted: w.__shifted };
      });
      assert.equal(watch.shift, 0, `late ${late}: cumulative layout shift ${watch.shift}: ${watch.shifted.join('; ')}`);
      // The heading is still drawn in the fallback: the font was not swapped in.
      const fonts = await drawnWith(page, 'h1');
      assert.ok(fonts.length > 0 && fonts.every((font) => !/inter/i.test(font.familyName)), `late ${late}: ${JSON.stringify(fonts)}`);
      assert.deepEqual(errors, []);
      await close();
    }
  });

  test('opened at a section (/#contact), the page is first drawn with the whole stylesheet, whose rules the inline sheet leaves out', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: PHONE });
    await page.goto(suite.server.url + '/#contact', { waitUntil: 'load' });
    // The first paint is reported once it has happened (an observer of the buffered entries).
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          new PerformanceObserver((list) => {
            if (list.getEntriesByName('first-contentful-paint').length > 0) resolve();
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    await page.waitForFunction(() => document.querySelector('#contact h2')!.getBoundingClientRect().top < innerHeight);
    const seen = await page.evaluate(() => {
      const sheet = performance
        .getEntriesByType('resource')
        .find((entry) => /\/assets\/index-[^/]+\.css$/.test(entry.name)) as PerformanceResourceTiming | undefined;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const link = document.head.querySelector('link[rel="stylesheet"][blocking="render"]') as HTMLLinkElement | null;
      const title = document.querySelector('#contact h2')!;
      return {
        link: link?.getAttribute('href'),
        sheetEnd: sheet?.responseEnd,
        painted: paint?.startTime,
        title: Number.parseFloat(getComputedStyle(title).fontSize),
        body: Number.parseFloat(getComputedStyle(document.body).fontSize),
        top: Math.round(title.getBoundingClientRect().top),
      };
    });
    assert.match(seen.link ?? '', /^\/assets\/index-[^/]+\.css$/, 'the head\'s script added the whole stylesheet');
    assert.ok(seen.sheetEnd !== undefined && seen.painted !== undefined, JSON.stringify(seen));
    assert.ok(seen.painted! >= seen.sheetEnd!, `the first paint (${seen.painted} ms) waited for the stylesheet (${seen.sheetEnd} ms)`);
    assert.ok(seen.title >= seen.body * 1.5, `the section's heading is styled: ${seen.title} px over ${seen.body} px`);
    assert.ok(seen.top < PHONE.height, `the section is on the screen: ${seen.top}`);
    assert.deepEqual(errors, []);
    await close();

    // Without a fragment the first view waits for no stylesheet.
    const plain = await openPage(suite.browser, suite.server, { viewport: PHONE });
    await plain.page.goto(suite.server.url + '/', { waitUntil: 'domcontentloaded' });
    assert.equal(await plain.page.locator('head link[rel="stylesheet"][blocking="render"]').count(), 0);
    await plain.close();
  });

  test('the sections after the first screen are drawn once they come near it, and what is on the screen stays in place as they are (375 px)', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: PHONE });
    await page.goto(suite.server.url + '/', { waitUntil: 'load' });
    await hydrated(page);
    // `contentVisibilityAuto`: false for an element whose content-visibility: auto ancestor skips it.
    const drawn = (selector: string) =>
      page.evaluate((what) => document.querySelector(what)!.checkVisibility({ contentVisibilityAuto: true }), selector);
    assert.equal(await drawn('#about h2'), true, 'the first screen is drawn');
    assert.equal(await drawn('#contact h2'), false, 'the last section is left for later');
    assert.match((await page.locator('#contact h2').textContent()) ?? '', /\w/, 'its text is in the page all the same');

    await page.locator('#contact h2').scrollIntoViewIfNeeded();
    await drawnState(page, '#contact h2');
    await twoFrames(page);
    assert.equal(await drawn('#contact h2'), true, 'drawn once on the screen');
    const top = () => page.evaluate(() => Math.round(document.querySelector('#contact h2')!.getBoundingClientRect().top));
    const first = await top();
    assert.ok(first >= 0 && first < PHONE.height, `on the screen: ${first}`);
    // The sections above it that the scroll passed take their heights; the heading does not move.
    await twoFrames(page);
    assert.equal(await top(), first, 'the heading stays where it was');
    assert.deepEqual(errors, []);
    await close();
  });

  test('the sections below the first screen take the whole stylesheet\'s colours at once: no transition runs from their unstyled look, and a hover\'s still does', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    // The page finishes those the sheet's arrival starts.
    await recordTransitions(page);
    await page.goto(suite.server.url + '/', { waitUntil: 'load' });
    await hydrated(page);
    await page.waitForFunction(() => [...document.styleSheets].some((sheet) => /\/assets\/index-[^/]+\.css$/.test(sheet.href ?? '')));
    // Two frames for the last events of the arrival.
    await twoFrames(page);
    const arrival = await page.evaluate(() => structuredClone((window as unknown as Transitions).__transitions));
    assert.ok(arrival.started.length > 0, 'the sheet\'s arrival starts transitions for the page to finish');
    assert.deepEqual(arrival.left, [], `transitions left running after the sheet came: ${arrival.left.join(', ')}`);

    // Later, a card's hover transition runs as the stylesheet says: the page leaves it running.
    const card = page.locator('#projects .card').first();
    await card.scrollIntoViewIfNeeded();
    await card.hover();
    await page.waitForFunction(() => (window as unknown as Transitions).__transitions.left.length > 0);
    const hover = await page.evaluate(() => (window as unknown as Transitions).__transitions.left);
    assert.ok(hover.some((entry) => entry.startsWith('card')), `the card's hover transition runs: ${hover.join(', ')}`);
    assert.deepEqual(errors, []);
    await close();
  });

  test('a section drawn after the scheme changed shows the new scheme at once: no colour eases in from the old one as it comes on the screen (375 px)', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: PHONE });
    // The page finishes those a section's first draw starts.
    await recordTransitions(page, '#contact');
    await page.goto(suite.server.url + '/', { waitUntil: 'load' });
    await hydrated(page);
    await page.waitForFunction(() => [...document.styleSheets].some((sheet) => /\/assets\/index-[^/]+\.css$/.test(sheet.href ?? '')));
    // The contact section drawn once in the dark scheme, then left for later again at the top.
    await page.locator('#contact h2').scrollIntoViewIfNeeded();
    await drawnState(page, '#contact h2');
    await twoFrames(page);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await drawnState(page, '#contact h2', false);
    const before = await page.evaluate(() => (window as unknown as Transitions).__transitions.started.length);

    // The visitor turns the page light at the top, then goes down to the form.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' }).click();
    await twoFrames(page);
    await page.locator('#contact h2').scrollIntoViewIfNeeded();
    await drawnState(page, '#contact h2');
    await twoFrames(page);
    await twoFrames(page);
    const log = await page.evaluate(() => structuredClone((window as unknown as Transitions).__transitions));
    assert.deepEqual(log.left, [], `colours eased in from the dark scheme: ${log.left.join(', ')} (${log.started.length - before} transitions started)`);
    // It shows the light scheme: its fields' background is light.
    const field = await page.getByLabel('Name', { exact: true }).evaluate((input) => getComputedStyle(input).backgroundColor);
    const [r, g, b] = (field.match(/[\d.]+/g) ?? []).map(Number);
    assert.ok(r! > 200 && g! > 200 && b! > 200, `the light scheme's field: ${field}`);

    // Later, a hover's transition there runs as the stylesheet says: the page leaves it running.
    await page.locator('#contact button[type="submit"]').hover();
    await page.waitForFunction(() => (window as unknown as Transitions).__transitions.left.length > 0);
    assert.deepEqual(errors, []);
    await close();
  });

  test('what is typed into the contact form before its code arrives is kept once it hydrates', async () => {
    // The form's section is hydrated from a second chunk; hold that chunk back for a moment.
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/home-below-the-fold-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(suite.server.url + '/', { waitUntil: 'load' });
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('Ada Lovelace');
    assert.equal(await name.evaluate((input) => Object.keys(input).some((k) => k.startsWith('__reactFiber'))), false, 'not hydrated yet');
    release();
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('#contact form')!).some((key) => key.startsWith('__reactFiber')),
    );
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'what was typed before hydration is kept');
    assert.deepEqual(errors, []);
    await close();
  });
});
