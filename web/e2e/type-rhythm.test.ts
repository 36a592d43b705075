/**
 * Browser tests of the page's type and rhythm (issue 47): the one web font (ours, off a first
 * view's first paint and declared before a returning visitor's, at most 35 KB, drawing the Latin text while Arabic keeps the system's faces), the default page's
 * height on a phone, the sections' padding, the compact skill cards, the project filter on one
 * row, the e-mail that wraps only before its @, one card style in both schemes, the owner's
 * accent in the hero's glow, the photo's blob and the link preview, and the German hero and the
 * brand on the narrowest phones.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser } from './harness.ts';
import { drawnWith, fontFetched, hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, publishDraft, publishLanguages } from './helpers.ts';

const FONT_BUDGET = 35 * 1024;
const PHONE_HEIGHT_BUDGET = 7_800;
const TEAL = '#0f766e';


/** Opens `url` again from the page itself, as a click on one of the site's links would: its referrer is this site. */
async function nextPageOfTheVisit(page: Page, url: string) {
  await Promise.all([page.waitForNavigation(), page.evaluate((to) => location.assign(to), url)]);
}

/**
 * Opens `url` as the next page of a visit: a first view asks for the font once it is painted and
 * stays in the fallback (src/web-font.ts); a page reached from it declares the font in its head
 * and draws in it from the first frame. Resolves once that page is hydrated and its fonts are ready.
 */
async function openWithFont(page: Page, url: string) {
  await page.goto(url);
  await hydrated(page);
  await fontFetched(page);
  await nextPageOfTheVisit(page, url);
  await hydrated(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Where the text of `selector` breaks onto a new line: the characters that begin each line after the first. */
function lineStarts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((target) => {
    const element = document.querySelector(target)!;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const starts: string[] = [];
    let lastTop: number | null = null;
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent ?? '';
      for (let i = 0; i < value.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getClientRects()[0]?.top;
        if (top === undefined) continue;
        if (lastTop !== null && top > lastTop + 2) starts.push(`${text}|${value.slice(i)}`);
        lastTop = top;
        text += value[i];
      }
    }
    return starts;
  }, selector);
}

/** Colours written in a computed style (rgb(), color(srgb …), lab() …), as sRGB bytes with their alpha, read back through a canvas. */
function coloursIn(page: Page, css: string): Promise<{ rgb: number[]; alpha: number }[]> {
  return page.evaluate((value) => {
    const tokens = value.match(/(?:rgba?|color|lab|lch|oklab|oklch|hsla?)\([^()]*\)/g) ?? [];
    return tokens.map((token) => {
      const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = token.replace(/\/\s*[\d.]+\s*\)$/, ')').replace(/^rgba\(([^,]+,[^,]+,[^,]+),[^)]*\)$/, 'rgb($1)');
      context.fillRect(0, 0, 1, 1);
      const alpha = /\/\s*([\d.]+)\s*\)$/.exec(token)?.[1] ?? /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/.exec(token)?.[1] ?? '1';
      return { rgb: [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)], alpha: Number(alpha) };
    });
  }, css);
}

/** How many of the boxes whose tops are given share each row, top to bottom. */
function rowCounts(tops: number[]): number[] {
  const rows = new Map<number, number>();
  for (const top of tops) rows.set(top, (rows.get(top) ?? 0) + 1);
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, count]) => count);
}

const hexBytes = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const near = (a: number[], b: number[], within = 3) => a.every((value, i) => Math.abs(value - b[i]!) <= within);

describe('type and rhythm', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });
  before(async () => publishLanguages(suite.server));

  test('the web font is ours, asked for after a first view is painted and before the next page of the visit is, at most 35 KB, cached for good, and draws the Latin text; Arabic keeps the system faces', async () => {
    const response = await fetch(`${suite.server.url}/`);
    assert.match(response.headers.get('content-security-policy') ?? '', /font-src 'self'/);
    const html = await response.text();
    // No preload and no @font-face of Inter: a first view's paint never waits for the font.
    assert.doesNotMatch(html, /rel="preload"[^>]*as="font"/);
    assert.doesNotMatch(html, /@font-face\{font-family:Inter;/);
    assert.match(html, /@font-face\{font-family:Inter Fallback;src:local\(Arial\)[^}]*size-adjust:/);
    // The head declares it for the next page of a visit (its referrer is this site), which has it cached.
    const declare = /<script>try\{document\.referrer\.indexOf\(location\.origin\+"\/"\)\|\|document\.fonts\.add\(new FontFace\("Inter","url\((\/assets\/inter-latin-[\w-]+\.woff2)\) format\('woff2'\)",\{[^}]*"display":"optional"[^}]*\}\)\)\}catch\{\}[^<]*<\/script>/.exec(html);
    assert.ok(declare, 'the head declares the font for the next page of a visit');
    assert.ok(html.indexOf(declare[0]) < html.indexOf('<body'), 'in the head, before the first paint');
    const fontUrl = declare[1]!;
    const font = await fetch(`${suite.server.url}${fontUrl}`);
    assert.equal(font.status, 200);
    assert.equal(font.headers.get('content-type'), 'font/woff2');
    assert.match(font.headers.get('cache-control') ?? '', /immutable/);
    const bytes = Buffer.from(await font.arrayBuffer());
    assert.equal(bytes.subarray(0, 4).toString('latin1'), 'wOF2');
    console.log(`the web font: ${bytes.length} bytes (${fontUrl})`);
    assert.ok(bytes.length <= FONT_BUDGET, `the font is ${bytes.length} bytes`);

    for (const path of ['/', '/de/', '/ar/']) {
      const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      // When the font starts to load, against the first paint: in a first view after it, in the
      // next page of the visit before it (from the cache).
      const fontAgainstPaint = () =>
        page.evaluate((url) => {
          const font = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(url));
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return font && paint ? Math.sign(font.startTime - paint.startTime) : undefined;
        }, fontUrl);
      await page.goto(`${suite.server.url}${path}`);
      await hydrated(page);
      await fontFetched(page);
      assert.equal(await fontAgainstPaint(), 1, `${path}: a first view asks for the font after its first paint`);
      // A reload is no next page: its referrer is not this site, so it is drawn in the fallback again.
      await page.reload();
      await hydrated(page);
      await fontFetched(page);
      assert.equal(await fontAgainstPaint(), 1, `${path}: a reload asks for it after its first paint too`);
      assert.equal(await page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Inter')), false);
      await nextPageOfTheVisit(page, `${suite.server.url}${path}`);
      await hydrated(page);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      assert.equal(await fontAgainstPaint(), -1, `${path}: the next page of the visit has it before its first paint`);
      assert.ok(requested.includes(fontUrl), `${path} fetches the font from us`);
      assert.deepEqual(foreignRequests, []);
      const face = await page.evaluate(() => [...document.fonts].find((f) => f.family.replace(/"/g, '') === 'Inter'));
      assert.ok(face, `${path}: document.fonts holds Inter`);
      assert.equal(await page.evaluate(() => [...document.fonts].find((f) => f.family.replace(/"/g, '') === 'Inter')?.status), 'loaded');
      assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /^Inter, "Inter Fallback", /);
      // The brand and the e-mail are Latin on every page: drawn in Inter, every glyph.
      for (const selector of ['header nav > a', '#about bdi[dir="ltr"]']) {
        const faces = await drawnWith(page, selector);
        assert.deepEqual(
          faces.map((f) => f.familyName),
          ['Inter Variable'],
          `${path} ${selector} is drawn with ${JSON.stringify(faces)}`,
        );
      }
      const heading = await drawnWith(page, 'h1');
      if (path === '/ar/') {
        // Arabic letters are outside the font's unicode-range: the system draws them, Inter the Latin name.
        assert.ok(heading.some((f) => f.familyName !== 'Inter Variable' && f.glyphCount > 3), `the Arabic heading: ${JSON.stringify(heading)}`);
        assert.ok(heading.some((f) => f.familyName === 'Inter Variable'), `the name in it: ${JSON.stringify(heading)}`);
      } else {
        assert.deepEqual(heading.map((f) => f.familyName), ['Inter Variable'], `${path} h1: ${JSON.stringify(heading)}`);
      }
      assert.deepEqual(errors, []);
      await close();
    }
    // The app's own pages (the sign-in here), drawn by the client, declare the font at once.
    const login = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
    for (let view = 0; view < 2; view += 1) {
      await (view === 0 ? login.page.goto(`${suite.server.url}/login`) : login.page.reload());
      await login.page.getByRole('heading', { level: 1 }).waitFor();
      await login.page.evaluate(() => document.fonts.ready.then(() => undefined));
    }
    assert.deepEqual((await drawnWith(login.page, 'h1')).map((f) => f.familyName), ['Inter Variable'], 'the sign-in heading');
    assert.deepEqual(login.errors, []);
    await login.close();
  });

  test('at 390 px the default page is at most 7,800 px tall, its sections padded 64 to 80 px, three skill cards or more to a row, the filter on one row', async () => {
    const heights: string[] = [];
    for (const width of [390, 1440]) {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width, height: 844 } });
      await openWithFont(page, `${suite.server.url}/`);
      // No named inner function in page code: the test runner's transform would wrap it in a helper the page lacks.
      const facts = await page.evaluate(() => ({
        height: document.documentElement.scrollHeight,
        paddings: [...document.querySelectorAll('main section[id]:not(#home)')].map((section) => ({
          id: section.id,
          top: parseFloat(getComputedStyle(section).paddingTop),
          bottom: parseFloat(getComputedStyle(section).paddingBottom),
        })),
        skillTops: [...document.querySelectorAll('#skills li')].map((li) => Math.round(li.getBoundingClientRect().top)),
        skillLogos: [...document.querySelectorAll('#skills li')].filter((li) =>
          [...li.querySelectorAll('img')].some((img) => img.checkVisibility() && img.getBoundingClientRect().width >= 24),
        ).length,
        filterTops: [...document.querySelectorAll('#projects [role="group"] button')].map((button) => Math.round(button.getBoundingClientRect().top)),
        scrollWidth: document.documentElement.scrollWidth,
      }));
      const skillRows = rowCounts(facts.skillTops);
      const filterRows = rowCounts(facts.filterTops);
      heights.push(`${width} px: ${facts.height} px`);
      assert.equal(facts.paddings.length, 5, 'about, skills, projects, experience and contact');
      for (const { id, top, bottom } of facts.paddings) {
        assert.ok(top >= 64 && top <= 80 && bottom >= 64 && bottom <= 80, `#${id} at ${width} px is padded ${top} / ${bottom} px`);
      }
      assert.equal(skillRows.reduce((a, b) => a + b, 0), 14, 'the fourteen skill cards');
      assert.equal(facts.skillLogos, 14, 'each with its logo shown');
      assert.ok(skillRows.slice(0, -1).every((count) => count >= 3), `skill cards per row at ${width} px: ${skillRows.join(', ')}`);
      assert.deepEqual(filterRows, [4], `the four filter buttons share one row at ${width} px`);
      assert.equal(facts.scrollWidth, width, 'nothing scrolls sideways');
      if (width === 390) assert.ok(facts.height <= PHONE_HEIGHT_BUDGET, `the page is ${facts.height} px tall at 390 px`);
      await close();
    }
    console.log(`the default page's height: ${heights.join(', ')}`);
  });

  test('the e-mail wraps only before its @, never inside a word, in About and in Contact', async () => {
    for (const width of [320, 390]) {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width, height: 800 } });
      await openWithFont(page, `${suite.server.url}/`);
      for (const selector of ['#about bdi[dir="ltr"]', '#contact a.u-email']) {
        const starts = await lineStarts(page, selector);
        assert.ok(
          starts.every((start) => start.split('|')[1]!.startsWith('@')),
          `${selector} at ${width} px breaks as ${JSON.stringify(starts)}`,
        );
        assert.equal(await page.locator(selector).evaluate((e) => e.textContent), 'alex.morgan@example.com');
      }
      await close();
    }
  });

  test('every card is alike in each scheme: one background, border and shadow, the contact form\'s panel too', async () => {
    for (const scheme of ['dark', 'light']) {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 1280, height: 800 } });
      await page.addInitScript((value) => localStorage.setItem('portfolio:scheme', value), scheme);
      await page.goto(`${suite.server.url}/`);
      await hydrated(page);
      await page.mouse.move(0, 0);
      const cards = await page.evaluate(() => {
        const form = document.querySelector('#contact form')!;
        const panel = form.closest('.card');
        return {
          formInCard: !!panel,
          styles: [...new Set([...document.querySelectorAll('main .card')].map((card) => {
            const style = getComputedStyle(card);
            return JSON.stringify([style.backgroundColor, style.borderTopColor, style.borderRadius, style.boxShadow]);
          }))],
          count: document.querySelectorAll('main .card').length,
        };
      });
      assert.ok(cards.formInCard, 'the contact form sits on a card');
      assert.ok(cards.count >= 14 + 4 + 3, `${cards.count} cards`);
      assert.equal(cards.styles.length, 1, `${scheme}: the cards differ: ${cards.styles.join(' | ')}`);
      if (scheme === 'light') assert.match(cards.styles[0]!, /^\["rgb\(255, 255, 255\)"/, 'white cards in daylight');
      assert.doesNotMatch(cards.styles[0]!, /"none"\]$/, 'with a shadow');
      await close();
    }
  });

  test('a teal accent colours the hero\'s glow, the photo\'s blob and the link preview', async () => {
    const before = Buffer.from(await (await fetch(`${suite.server.url}/og-image.png`)).arrayBuffer());
    await publishDraft(
      suite.server,
      (document) => {
        (document.appearance as { accent: string }).accent = TEAL;
      },
      async () => (await fetch(`${suite.server.url}/`)).text().then((html) => html.includes(`--color-blue-600:${TEAL}`)),
    );
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 1440, height: 900 } });
    await page.goto(`${suite.server.url}/`);
    await hydrated(page);
    const glow = await page.locator('.hero-glow').evaluate((e) => getComputedStyle(e).backgroundImage);
    const glowColours = await coloursIn(page, glow);
    assert.ok(
      glowColours.some(({ rgb, alpha }) => alpha > 0 && near(rgb, hexBytes(TEAL), 6)),
      `the glow is drawn with ${TEAL}: ${glow} -> ${JSON.stringify(glowColours)}`,
    );
    const blob = await page.locator('#home .blob:not(img)').evaluate((e) => getComputedStyle(e).backgroundImage);
    const blobColours = (await coloursIn(page, blob)).filter(({ alpha }) => alpha > 0);
    assert.ok(blobColours.length >= 2, blob);
    assert.ok(blobColours.every(({ rgb: [r, g, b] }) => g! > r! && g! >= b! - 12), `the blob's gradient is teal: ${blob}`);

    // The link preview, drawn again at the publish: its pixels read back through a canvas.
    const after = Buffer.from(await (await fetch(`${suite.server.url}/og-image.png`)).arrayBuffer());
    assert.notDeepEqual(after, before, 'the preview was drawn again');
    /** Pixels of a PNG, read back through a canvas: the bar under the heading (x 80 to 144, y 120 to 126) and the glow left of the portrait. */
    const pixelsOf = (source: string) =>
      page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d', { willReadFrequently: true })!;
        context.drawImage(image, 0, 0);
        return {
          size: [image.naturalWidth, image.naturalHeight],
          bar: [...context.getImageData(110, 123, 1, 1).data.slice(0, 3)] as [number, number, number],
          glow: [...context.getImageData(760, 315, 1, 1).data.slice(0, 3)] as [number, number, number],
        };
      }, source);
    const teal = await pixelsOf('/og-image.png');
    const blue = await pixelsOf(`data:image/png;base64,${before.toString('base64')}`);
    assert.deepEqual(teal.size, [1200, 630]);
    const [r, g, b] = teal.bar;
    assert.ok(g > r + 60 && g >= b && g - b < 60, `the bar is teal: ${teal.bar} (it was ${blue.bar})`);
    assert.ok(blue.bar[2] > blue.bar[1] + 60, `and was blue: ${blue.bar}`);
    assert.ok(teal.glow[1] > blue.glow[1] && teal.glow[2] < blue.glow[2], `the glow turned from blue ${blue.glow} to teal ${teal.glow}`);
    await close();

    // Back to the default accent for the tests after this one.
    await publishDraft(
      suite.server,
      (document) => {
        (document.appearance as { accent: string }).accent = '#155dfc';
      },
      async () => !(await (await fetch(`${suite.server.url}/`)).text()).includes(`--color-blue-600:${TEAL}`),
    );
  });

  test('on /de/ at 390 px "Kontakt" stays on one line beside its neighbour; at 320 px the brand is inside the screen on every page', async () => {
    {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 }, locale: 'de-DE' });
      await openWithFont(page, `${suite.server.url}/de/`);
      const buttons = await page.locator('#home .btn').evaluateAll((links) =>
        links.map((link) => {
          const box = link.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(link);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          return { text: link.textContent?.trim(), top: Math.round(box.top), height: Math.round(box.height), right: box.right, lines: lines.size };
        }),
      );
      const contact = buttons.find((button) => button.text === 'Kontakt');
      assert.ok(contact, JSON.stringify(buttons));
      assert.equal(contact.lines, 1, `"Kontakt" is on one line: ${JSON.stringify(buttons)}`);
      assert.equal(contact.height, 44);
      assert.equal(contact.top, buttons[0]!.top, `"Kontakt" shares the row of "${buttons[0]!.text}": ${JSON.stringify(buttons)}`);
      assert.ok(contact.right <= 390);
      await close();
    }
    for (const path of ['/', '/de/', '/ar/']) {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 320, height: 700 }, locale: path === '/ar/' ? 'ar' : path === '/de/' ? 'de-DE' : 'en-US' });
      await openWithFont(page, `${suite.server.url}${path}`);
      await page.waitForFunction(() => document.querySelector('header')?.dataset.fit !== undefined);
      const brand = await page.locator('header nav > a').first().evaluate((a) => {
        const box = a.getBoundingClientRect();
        return { left: box.left, right: box.right, scrollWidth: a.scrollWidth, clientWidth: a.clientWidth, text: a.textContent };
      });
      assert.equal(brand.text, 'Alex Morgan.');
      assert.ok(brand.left >= 0 && brand.right <= 320, `${path}: the brand spans ${brand.left} to ${brand.right}`);
      assert.ok(brand.scrollWidth <= brand.clientWidth, `${path}: the brand is cut (${brand.scrollWidth} > ${brand.clientWidth})`);
      await close();
    }
  });

  test('axe finds nothing on / at 390 px in either scheme, nor on /de/', async () => {
    for (const [path, scheme] of [['/', 'dark'], ['/', 'light'], ['/de/', 'dark']] as const) {
      const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: 844 } });
      await page.addInitScript((value) => localStorage.setItem('portfolio:scheme', value), scheme);
      await openWithFont(page, `${suite.server.url}${path}`);
      assert.deepEqual(await axeViolations(page), [], `${path} in the ${scheme} scheme`);
      await close();
    }
  });
});
