/**
 * Browser tests of the site on paper (a print, or "Save as PDF"): the landing's text dark on white
 * in either scheme, the header once at the top rather than over every page, no control that paper
 * cannot use, the light scheme's logos, cards kept whole; its print rules come with the whole
 * stylesheet, never in the first screen's inline sheet. A case study's page, which loads no other
 * sheet, carries them inline.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser } from './harness.ts';
import { contrast, hydrated } from './page-support.ts';

/** Prints `page` as Chromium does (A4) and reads each sheet's text back with poppler's `pdftotext`. */
async function printedSheets(page: Page): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'portfolio-print-'));
  try {
    const file = join(folder, 'page.pdf');
    writeFileSync(file, await page.pdf({ format: 'A4' }));
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((text) => text.trim());
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether a sheet's first line is the header's name alone. */
const beginsWithHeader = (sheet: string) => /^Alex Morgan\.$/.test(sheet.trim().split('\n')[0]!.trim());

/** Every printed text's colour (sRGB bytes, read back through a canvas) and where it is, and every box with a background colour. */
function printedColours(page: Page) {
  return page.evaluate(() => {
    // No named inner function: the test runner's transform would wrap it in a helper the page lacks.
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const texts: { where: string; rgb: number[] }[] = [];
    const backgrounds: string[] = [];
    for (const element of document.querySelectorAll('#root *')) {
      if (!element.checkVisibility()) continue;
      const style = getComputedStyle(element);
      const where = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 3).join('.')}`;
      const [color, background] = [style.color, style.backgroundColor].map((css) => {
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = css;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data];
      });
      if ([...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim())) {
        texts.push({ where, rgb: color!.slice(0, 3) });
      }
      if (background![3] !== 0) backgrounds.push(`${where}: ${style.backgroundColor}`);
    }
    return { texts, backgrounds };
  });
}

/** The texts under 4.5:1 on white paper, each named with its colour. */
const faintOnWhite = (texts: { where: string; rgb: number[] }[]) =>
  texts.filter((text) => contrast(`rgb(${text.rgb})`, 'rgb(255, 255, 255)') < 4.5).map((text) => `${text.where} rgb(${text.rgb})`);

describe('the site on paper', () => {
  const suite = serverAndBrowser();

  test('the first screen inlines no print rule; the whole stylesheet has them', async () => {
    const html = await (await fetch(`${suite.server.url}/`)).text();
    const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!).join('');
    assert.ok(inline.length > 0);
    assert.doesNotMatch(inline, /@media print/);
    const sheet = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)">/.exec(html)?.[1];
    assert.ok(sheet, 'the page links the whole stylesheet for a page without JavaScript');
    assert.match(await (await fetch(`${suite.server.url}${sheet}`)).text(), /@media print\{/);
  });

  for (const scheme of ['dark', 'light'] as const) {
    test(`printed in the ${scheme} scheme: dark text on white, the header once with the name alone, no controls, the light logos, cards kept whole`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server);
      try {
        await page.goto(`${suite.server.url}/`);
        await hydrated(page);
        if (scheme === 'light') {
          await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' }).click();
          assert.equal(await page.evaluate(() => document.documentElement.dataset.scheme), 'light');
        }
        // The whole stylesheet, which brings paper's rules, has come.
        await page.waitForFunction(() => [...document.styleSheets].some((sheet) => sheet.href?.includes('/assets/')));
        await page.emulateMedia({ media: 'print' });

        const header = page.locator('#root > header');
        assert.equal(await header.evaluate((element) => getComputedStyle(element).position), 'static', 'the header is not drawn over every page');
        const navigation = page.getByRole('navigation', { name: 'Main' });
        assert.equal(await navigation.getByRole('link', { name: 'Alex Morgan.' }).isVisible(), true, 'the name stays');
        for (const control of [
          navigation.getByRole('button', { name: /scheme/ }),
          navigation.getByRole('link', { name: 'Download Resume' }),
          page.getByRole('group', { name: 'Filter projects by stack' }),
          page.locator('#contact form'),
          page.locator('#contact .card', { has: page.locator('form') }),
          page.locator('.hero-glow'),
        ]) {
          assert.equal(await control.first().isVisible(), false, `${control} is left off paper`);
        }
        // A logo drawn for each scheme (Vercel's) shows its variant for white.
        const vercel = page.locator('#skills li', { hasText: 'Vercel' }).locator('img');
        assert.equal(await vercel.count(), 2);
        assert.equal(await vercel.and(page.locator('.only-light')).isVisible(), true, 'the light variant is printed');
        assert.equal(await vercel.and(page.locator('.only-dark')).isVisible(), false);
        const caret = page.getByTestId('typewriter');
        assert.equal(await caret.evaluate((element) => getComputedStyle(element).borderInlineEndColor), 'rgba(0, 0, 0, 0)', 'no typing caret');
        assert.equal(await page.locator('#projects .card').first().evaluate((card) => getComputedStyle(card).breakInside), 'avoid');

        const { texts, backgrounds } = await printedColours(page);
        assert.ok(texts.length > 50, `the page's texts are read (${texts.length})`);
        assert.deepEqual(faintOnWhite(texts), [], 'every text has 4.5:1 on white');
        // With "background graphics" on, no dark band or card comes under the dark text.
        assert.deepEqual(backgrounds, []);

        // Chromium's own print: the name at the top of the first sheet only.
        const sheets = await printedSheets(page);
        assert.ok(sheets.length >= 3, `the page prints on ${sheets.length} sheets`);
        assert.ok(beginsWithHeader(sheets[0]!), 'the first sheet begins with the name');
        assert.deepEqual(sheets.slice(1).filter(beginsWithHeader), [], 'no later sheet begins with the header');
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    });
  }

  test("a case study's page carries paper's rules inline: dark text on white, the header once, no controls", async () => {
    const html = await (await fetch(`${suite.server.url}/projects/portfolio/`)).text();
    assert.match([...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!).join(''), /@media print\{/);
    assert.doesNotMatch(html, /<link rel="stylesheet"/, 'it links no other sheet');
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    try {
      await page.goto(`${suite.server.url}/projects/portfolio/`);
      await hydrated(page);
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.locator('#root > header').evaluate((element) => getComputedStyle(element).position), 'static');
      // No room kept under a header that is no longer over the page.
      assert.equal(await page.locator('#main > *').first().evaluate((element) => getComputedStyle(element).paddingTop), '8px');
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /scheme/ }).isVisible(), false);
      const { texts, backgrounds } = await printedColours(page);
      assert.ok(texts.length > 10, `the page's texts are read (${texts.length})`);
      assert.deepEqual(faintOnWhite(texts), [], 'every text has 4.5:1 on white');
      assert.deepEqual(backgrounds, []);
      const sheets = await printedSheets(page);
      assert.ok(beginsWithHeader(sheets[0]!), 'the first sheet begins with the name');
      assert.deepEqual(sheets.slice(1).filter(beginsWithHeader), [], 'no later sheet begins with the header');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
});
