/**
 * Browser tests of the Page tab at every width an owner opens it at, from a small phone (360 px) to
 * a wide desktop (1440 px): nothing scrolls sideways, every list row shows its title whole beside an
 * icon-only remove button named for the item, the preview is beside the form from 1280 px and a
 * toggle below, the tab keeps the dashboard's container and its heading stays put while it loads,
 * and an upload takes the owner to the image's description.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser } from './harness.ts';
import { axeViolations, OWNER_ENV, signIn } from './helpers.ts';
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

const WIDTHS = [360, 390, 1024, 1280, 1440] as const;
const HEIGHT = 800;

/** The parts by their link's name in the list, as the editor shows them. */
const PARTS = [
  'Profile',
  'Typewriter phrases',
  'About',
  'Contact',
  'Social links',
  'Skills',
  'Projects',
  'Experience',
  'Education',
  'Resume',
  'Languages',
  'Appearance',
  'Versions',
] as const;

/** axe over the editor, without the preview's frame (the public page, checked by its own tests). */
function editorViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { exclude: 'iframe' });
}

async function openEditorAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: HEIGHT });
  await page.getByRole('tab', { name: 'Page' }).click();
  await page.getByRole('region', { name: 'Profile' }).getByLabel('Name', { exact: true }).waitFor();
}

async function openPart(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Parts of the page' }).getByRole('link', { name: new RegExp(`^${name}`) }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

/**
 * What does not fit: the page wider than the window, a list row's title cut off or out of the
 * window, a remove button with a visible word, out of the window or clipped by its row.
 */
function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const wide = document.documentElement.scrollWidth - window.innerWidth;
    if (wide > 0) found.push(`the page scrolls sideways by ${wide} px`);
    const edge = window.innerWidth + 0.5;
    for (const title of document.querySelectorAll<HTMLElement>('#editor-part button[aria-controls$="-fields"] > span:not([aria-hidden])')) {
      const r = title.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < 0 || r.right > edge) found.push(`the title "${title.textContent}" is outside the window (${r.left}..${r.right})`);
      if (title.scrollWidth > title.clientWidth + 1) found.push(`the title "${title.textContent}" is cut off`);
      const row = title.closest('section')!.getBoundingClientRect();
      const remove = title.closest('section')!.querySelector<HTMLElement>('button[aria-label^="Remove the "]');
      if (!remove) found.push(`the row "${title.textContent}" has no remove button`);
      else if (remove.getBoundingClientRect().left < r.right) found.push(`the title "${title.textContent}" runs under its remove button`);
      if (r.right > row.right) found.push(`the title "${title.textContent}" overflows its row`);
    }
    for (const remove of document.querySelectorAll<HTMLElement>('#editor-part button[aria-label^="Remove "]')) {
      const r = remove.getBoundingClientRect();
      if (r.width === 0) continue;
      const name = remove.getAttribute('aria-label');
      if (remove.innerText.trim() !== '') found.push(`"${name}" shows the words "${remove.innerText.trim()}"`);
      if (r.left < 0 || r.right > edge) found.push(`"${name}" is outside the window (${r.left}..${r.right})`);
      const row = (remove.closest('section') ?? remove.closest('li'))!.getBoundingClientRect();
      if (r.left < row.left || r.right > row.right + 0.5) found.push(`"${name}" is clipped by its row`);
      if (r.width < 44 || r.height < 44) found.push(`"${name}" is ${r.width}x${r.height} px, under 44`);
    }
    return found;
  });
}

/** The left and right edges of the tab's container, in px. */
function containerEdges(page: Page): Promise<[number, number]> {
  return page.locator('main .container-page').first().evaluate((element) => {
    const r = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return [r.left + parseFloat(style.paddingLeft), r.right - parseFloat(style.paddingRight)];
  });
}

describe('the page editor at every width', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('from 360 to 1440 px no part scrolls sideways, and every row shows its title whole beside an icon-only remove button', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    const seen: string[] = [];
    for (const width of WIDTHS) {
      await openEditorAt(page, width);
      for (const part of PARTS) {
        await openPart(page, part);
        // Each part folded, then with its first item open (its own lists, such as a job's awards, inside).
        const found = await misfits(page);
        const folded = page.locator('#editor-part button[aria-expanded="false"]').first();
        if ((await folded.count()) > 0) {
          const first = page.locator(`#editor-part button[aria-controls="${await folded.getAttribute('aria-controls')}"]`);
          await first.click();
          found.push(...(await misfits(page)).map((m) => `with an item open, ${m}`));
          await first.click();
        }
        // axe on the narrowest screen, where the rows are most crowded.
        if (width === WIDTHS[0]) found.push(...(await editorViolations(page)));
        assert.deepEqual(found, [], `${part} at ${width} px`);
        seen.push(`${part}@${width}`);
      }
      await page.getByRole('tab', { name: 'Inbox' }).click();
    }
    assert.equal(seen.length, WIDTHS.length * PARTS.length);
    assert.deepEqual(errors, []);
    await close();
  });

  test('each row is named for its item: "Remove the project …", its title shown as the item is called', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: { width: 1024, height: HEIGHT } });
    await signIn(page, suite.server);
    await openEditorAt(page, 1024);
    await openPart(page, 'Projects');
    const first = page.getByRole('region', { name: /^Project 1: / });
    const toggle = first.getByRole('button', { name: /^Project 1: / });
    // What shows is the project's title; "Project 1:" is for screen readers.
    const title = await toggle.evaluate((button) => button.querySelector('span:not(.sr-only)')!.lastChild!.textContent!);
    assert.ok(title.length > 0, `the row shows "${title}"`);
    assert.equal(await toggle.locator('.sr-only').evaluate((prefix) => prefix.getBoundingClientRect().width <= 1), true);
    assert.equal(await toggle.getAttribute('aria-label'), null, 'the name is what shows, and its number');
    await first.getByRole('button', { name: `Remove the project ${title}` }).waitFor();
    await openPart(page, 'Skills');
    const skills = page.locator('#editor-part button[aria-label^="Remove the skill "]');
    assert.ok((await skills.count()) > 1);
    assert.deepEqual(await skills.evaluateAll((buttons) => buttons.filter((b) => (b as HTMLElement).innerText.trim() !== '').length), 0);
    await openPart(page, 'Typewriter phrases');
    await page.getByRole('button', { name: 'Remove phrase 1' }).waitFor();
    // A job left open does not open a school: each list keeps its own open items.
    await openPart(page, 'Experience');
    await page.getByRole('button', { name: /^Experience 1: / }).click();
    await page.getByRole('region', { name: /^Experience 1: / }).getByLabel('Job title').waitFor();
    await openPart(page, 'Education');
    assert.deepEqual(await page.locator('#editor-part [aria-expanded="true"]').count(), 0);
    assert.deepEqual(await editorViolations(page), []);
    await close();
  });

  test('the preview is beside the form from 1280 px, and below it a toggle that shows and hides it', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    const preview = page.getByRole('complementary', { name: 'Preview' });
    const frameOrMessage = preview.locator('iframe[title^="Preview of the draft"]').or(preview.getByText('The preview could not be loaded.'));

    for (const width of [1280, 1440]) {
      await openEditorAt(page, width);
      await frameOrMessage.first().waitFor();
      assert.equal(await page.getByRole('button', { name: /^(Show|Hide) preview$/ }).count(), 0, `no toggle at ${width} px`);
      const form = (await page.locator('#editor-part').boundingBox())!;
      const beside = (await preview.boundingBox())!;
      assert.ok(beside.x >= form.x + form.width, `at ${width} px the preview (x ${beside.x}) is beside the form (right ${form.x + form.width})`);
      await page.getByRole('tab', { name: 'Inbox' }).click();
    }

    for (const width of [360, 390, 1024]) {
      await openEditorAt(page, width);
      const toggle = page.getByRole('button', { name: /^(Show|Hide) preview$/ });
      assert.equal(await toggle.innerText(), 'Show preview');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await frameOrMessage.count(), 0, `at ${width} px the preview waits to be asked for`);
      assert.equal(await preview.isVisible(), false);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.equal(await toggle.innerText(), 'Hide preview');
      await frameOrMessage.first().waitFor();
      const controlled = await toggle.getAttribute('aria-controls');
      assert.equal(await page.locator(`#${controlled}`).getAttribute('aria-label'), 'Preview');
      // It is above the form, as wide as the form's column, and the page still does not scroll sideways.
      const shown = (await preview.boundingBox())!;
      const form = (await page.locator('#editor-part').boundingBox())!;
      assert.ok(shown.y + shown.height <= form.y, `at ${width} px the preview is above the form`);
      assert.ok(shown.x + shown.width <= width, `at ${width} px the preview fits the window`);
      assert.deepEqual(await misfits(page), [], `${width} px with the preview shown`);
      assert.deepEqual(await editorViolations(page), [], `${width} px with the preview shown`);
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await frameOrMessage.count(), 0);
      await page.getByRole('tab', { name: 'Inbox' }).click();
    }

    // Narrowing the window from a desktop's width turns the preview into the toggle.
    await openEditorAt(page, 1440);
    await frameOrMessage.first().waitFor();
    await page.setViewportSize({ width: 1100, height: HEIGHT });
    await page.getByRole('button', { name: 'Show preview' }).waitFor();
    assert.equal(await frameOrMessage.count(), 0);
    await close();
  });

  test("the Page tab has the inbox's container at every width, and its heading stays where it is while it loads", async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      await page.getByRole('tab', { name: 'Inbox' }).click();
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      const inbox = await containerEdges(page);
      await openEditorAt(page, width);
      assert.deepEqual(await containerEdges(page), inbox, `the Page tab's edges at ${width} px`);
      const heading = (await page.getByRole('heading', { level: 1, name: 'Page' }).boundingBox())!;
      assert.equal(heading.x, inbox[0], `the heading starts at the container's edge at ${width} px`);
    }

    await close();

    // Held back: first the editor's code, then the draft. The heading is in the same place in each state.
    const fresh = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: HEIGHT } });
    await signIn(fresh.page, suite.server);
    const owner = fresh.page;
    let releaseCode = () => {};
    let releaseDraft = () => {};
    await owner.route(/\/assets\/page-editor-[^/]*\.js$/, async (route) => {
      await new Promise<void>((resolve) => (releaseCode = resolve));
      await route.continue();
    });
    await owner.route(/\/api\/content\/draft$/, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      await new Promise<void>((resolve) => (releaseDraft = resolve));
      await route.continue();
    });
    const where = async () => {
      const box = (await owner.getByRole('heading', { level: 1, name: 'Page' }).boundingBox())!;
      return [box.x, box.y];
    };
    await owner.getByRole('tab', { name: 'Page' }).click();
    await owner.getByRole('status').filter({ hasText: 'Loading the editor…' }).waitFor();
    const loadingCode = await where();
    releaseCode();
    await owner.getByRole('status').filter({ hasText: 'Loading the draft…' }).waitFor();
    const loadingDraft = await where();
    releaseDraft();
    await owner.getByRole('region', { name: 'Profile' }).waitFor();
    const loaded = await where();
    assert.deepEqual(loadingCode, loaded, 'the heading while the editor loads');
    assert.deepEqual(loadingDraft, loaded, 'the heading while the draft loads');
    await fresh.close();
  });

  test("after an upload focus is on the image's description, emptied if it was the placeholder's", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: { width: 390, height: HEIGHT } });
    await signIn(page, suite.server);
    await openEditorAt(page, 390);
    const profile = page.getByRole('region', { name: 'Profile' });
    const description = profile.getByLabel('Alt text of the photo');
    assert.equal(await description.inputValue(), 'Illustrated portrait of Alex Morgan');
    const png = (step: number) => {
      const pixels = new Uint8Array(300 * 300 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * step) % 256));
      return { name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(encodePng(pixels, 300, 300) as Uint8Array) };
    };
    await profile.getByLabel('Upload a new photo').setInputFiles(png(13));
    await profile.locator('img[src^="/media/"]').waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('id')?.endsWith('-alt'));
    assert.equal(await description.evaluate((field) => field === document.activeElement), true, 'the description is focused');
    assert.equal(await description.inputValue(), '', "the placeholder's description is gone");

    // The owner's own description is kept through the next upload, and focused to be checked.
    await page.keyboard.type('Me at my desk');
    await profile.getByLabel('Upload a new photo').setInputFiles(png(7));
    await page.waitForFunction(() => {
      const field = document.activeElement as HTMLInputElement | null;
      return field?.id.endsWith('-alt') === true && field.value === 'Me at my desk';
    });
    assert.deepEqual(await editorViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });
});
