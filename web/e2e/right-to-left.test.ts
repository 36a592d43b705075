/**
 * Right to left in full (issue 47), on the real binary with Arabic published: every run of
 * left-to-right text on the Arabic page (the owner's name, addresses, numbers, the technologies'
 * names such as "C#" and ".NET") is drawn in its own order, read off the characters' boxes as the
 * browser drew them: on the page, in the language menu, in the award dialog and on the 404 page.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { openPage, serverAndBrowser, PHONE } from './harness.ts';
import { hydrated, scrollThrough } from './page-support.ts';
import { axeViolations, OWNER_ENV, publishDraft } from './helpers.ts';
import TRANSLATIONS from './fixtures/translations.json' with { type: 'json' };

/** Names that end or begin with a character of no direction: drawn "#C" and "NET." in a right-to-left run. */
const TECHNOLOGIES = ['C#', '.NET', 'C++'];
const SKILL = 'C#';

/**
 * The text nodes inside `root` that are wholly left to right (Latin letters, no Arabic or Hebrew
 * one) and drawn, each with the characters that are drawn out of their order: on one line, a
 * character to the left of the one before it.
 */
function misordered(page: Page, root = 'body') {
  return page.evaluate((selector) => {
    const rtl = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
    const latin = /[A-Za-z]/;
    const found: { text: string; where: string }[] = [];
    const checked: string[] = [];
    const scope = document.querySelector(selector)!;
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || !latin.test(text) || rtl.test(text)) continue;
      if (parent.closest('.sr-only, script, style, template') || !parent.checkVisibility({ visibilityProperty: true })) continue;
      const boxes: { left: number; top: number }[] = [];
      for (let i = 0; i < text.length; i += 1) {
        if (/\s/.test(text[i]!)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        boxes.push({ left: box.left, top: box.top });
      }
      if (boxes.length < 2) continue;
      checked.push(text.trim());
      for (let i = 1; i < boxes.length; i += 1) {
        const [before, after] = [boxes[i - 1]!, boxes[i]!];
        if (Math.abs(before.top - after.top) < 2 && after.left < before.left) {
          found.push({ text: text.trim(), where: parent.closest('[id]')?.id ?? parent.tagName });
          break;
        }
      }
    }
    return { found, checked };
  }, root);
}

describe('the Arabic page, right to left in full', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  before(async () => {
    await publishDraft(
      suite.server,
      (document) => {
        const projects = document.projects as { technologies: string[] }[];
        projects[0]!.technologies = [...TECHNOLOGIES];
        const skills = document.skills as { name: string }[];
        skills[skills.length - 1]!.name = SKILL;
        document.languages = [{ tag: 'ar', published: true, texts: TRANSLATIONS.ar, strings: {} }];
      },
      async () => (await fetch(`${suite.server.url}/ar/`)).status === 200,
    );
  });

  test('every left-to-right run reads in its own order: names, addresses, numbers, technologies', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await page.goto(`${suite.server.url}/ar/`);
    await hydrated(page);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await scrollThrough(page);

    // The technologies as the first project's card draws them: "C#" reads "C#".
    const card = page.getByTestId('project-card').first();
    for (const name of TECHNOLOGIES) {
      const tag = card.getByRole('listitem').filter({ hasText: name });
      assert.equal(await tag.getAttribute('dir'), 'auto');
      const drawn = await tag.evaluate((element) => {
        // The characters by where they are drawn, left to right.
        const text = element.firstChild!;
        return [...text.textContent!]
          .map((char, i) => {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            return { char, left: range.getBoundingClientRect().left };
          })
          .sort((a, b) => a.left - b.left)
          .map(({ char }) => char)
          .join('');
      });
      assert.equal(drawn, name, `the tag ${name} as drawn`);
    }
    // The skill's card, and the owner's name in the greeting.
    assert.equal(await page.locator('#skills li span[dir="auto"]').filter({ hasText: SKILL }).count(), 1);
    assert.equal(await page.locator('#home h1 bdi.p-name').textContent(), profile.name);

    const { found, checked } = await misordered(page);
    assert.deepEqual(found, [], `drawn out of order: ${JSON.stringify(found)}`);
    // What was read: the technologies, the skills, the name, the address and the page's own links.
    // The address may wrap only before its @, so it is two runs: each read, and in order in its isolate.
    for (const text of [...TECHNOLOGIES, SKILL, profile.name, 'alex.morgan', '@example.com']) {
      assert.ok(checked.includes(text), `${text} was read (read: ${checked.join(' | ')})`);
    }
    const address = page.locator('#about bdi[dir="ltr"]');
    assert.equal(await address.textContent(), 'alex.morgan@example.com');
    const inOrder = await address.evaluate((bdi) => {
      const [a, b] = [...bdi.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => {
          const range = document.createRange();
          range.setStart(node, 0);
          range.setEnd(node, 1);
          return range.getBoundingClientRect();
        });
      return Math.abs(a!.top - b!.top) > 2 || a!.left < b!.left;
    });
    assert.ok(inOrder, 'the local part is drawn before the domain');
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test('on a phone, in the language menu and the award dialog too', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: PHONE, isMobile: true, hasTouch: true });
    await page.goto(`${suite.server.url}/ar/`);
    await hydrated(page);
    await scrollThrough(page);
    assert.deepEqual((await misordered(page)).found, []);

    // The language menu names each language in itself: "English" reads "English".
    await page.locator('.lang-button').click();
    const english = page.locator('.lang-menu a[lang="en"]');
    await english.waitFor();
    const menu = await misordered(page, '.lang-menu');
    assert.deepEqual(menu.found, []);
    assert.ok(menu.checked.includes('English'), `the menu's English was read: ${menu.checked.join(' | ')}`);
    await page.keyboard.press('Escape');
    await english.waitFor({ state: 'hidden' });

    // The award dialog: its title and its entry, in the page's language, each run in order.
    const award = page.locator('#experience').getByRole('button', { name: TRANSLATIONS.ar['experience[0].awards[0].title'] });
    await award.scrollIntoViewIfNeeded();
    await award.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert.deepEqual((await misordered(page, 'dialog')).found, []);
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'إغلاق' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(errors, []);
    await close();
  });

  test('the 404 page under /ar/ draws the brand and its navigation in order', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    const response = await page.goto(`${suite.server.url}/ar/no-such-page`);
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    const { found, checked } = await misordered(page);
    assert.deepEqual(found, []);
    assert.ok(checked.includes(profile.name), `the brand was read: ${checked.join(' | ')}`);
    assert.deepEqual(await axeViolations(page), []);
    await close();
  });
});
