/**
 * Browser tests of the owner's own words (issue 46): the hero's paragraph, each section's heading
 * and lead and the footer are fields of the document, edited in their parts and translated like
 * the others, so a page whose every text is the owner's keeps none of the placeholder's sentences,
 * in any language; the copyright runs from its first year to the year of the publish.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { DESKTOP, openPage, serverAndBrowser } from './harness.ts';
import { axeViolations, OWNER_ENV, publishDraft, signIn } from './helpers.ts';
import PLACEHOLDER from '../src/content/default-document.json' with { type: 'json' };
import MOVED from '../../content/src/moved-texts.json' with { type: 'json' };
import EN from '../src/i18n/en.json' with { type: 'json' };
import DE from '../src/i18n/de.json' with { type: 'json' };
import type { ContentDocument } from '../src/content/document.ts';
import { textFields } from '../src/dashboard/page-editor/translations.ts';

/** Fields whose strings are not words on the page: ids, addresses, patterns, settings. */
const NOT_WORDS = new Set(['id', 'logo', 'image', 'photo', 'certificate', 'src', 'url', 'codeUrl', 'demoUrl', 'dial', 'email', 'accent', 'scheme', 'stack', 'path', 'language', 'tag', 'mapsQuery']);

/** Every string of the document that is a word on the page, reversed: the same length, none the same. */
function everyWordChanged<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (NOT_WORDS.has(key) ? value : [...value].reverse().join('')) as T;
  if (Array.isArray(value)) return value.map((item) => everyWordChanged(item, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyWordChanged(v, k)])) as T;
  }
  return value;
}

/** The placeholder's sentences and names: every word string of two words or more that no fixed text of the page has. */
function placeholderSentences(): string[] {
  const strings = new Set<string>();
  const collect = (value: unknown, key = '') => {
    if (typeof value === 'string' && !NOT_WORDS.has(key)) strings.add(value);
    else if (Array.isArray(value)) value.forEach((item) => collect(item, key));
    else if (value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => collect(v, k));
  };
  collect(PLACEHOLDER);
  // The texts that were fixed texts before they were the owner's, as the tables had them.
  collect(MOVED.en);
  collect(MOVED.de);
  const fixed = new Set([...Object.values(EN), ...Object.values(DE)]);
  return [...strings].filter((text) => text.trim().split(/\s+/).length >= 2 && !fixed.has(text));
}

/** Every text the visitor can meet on the page: its text and every attribute (alt, title, meta). */
function everythingSaid(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [document.title];
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) parts.push(attribute.value);
    }
    parts.push(document.body.innerText);
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) parts.push(walker.currentNode.nodeValue ?? '');
    return parts.join('\n');
  });
}

describe("the owner's own words", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test("a page whose every text is the owner's keeps none of the placeholder's sentences, at / and /de/", async () => {
    const theirs = everyWordChanged(PLACEHOLDER) as unknown as ContentDocument;
    const texts = Object.fromEntries(textFields(theirs).filter((field) => field.value).map((field) => [field.path, `de ${field.value}`]));
    await publishDraft(
      suite.server,
      (document) => {
        for (const key of Object.keys(document)) delete document[key];
        Object.assign(document, theirs, { languages: [{ tag: 'de', published: true, texts, strings: {} }] });
      },
      async () => (await fetch(`${suite.server.url}/de/`)).status === 200,
    );
    const sentences = placeholderSentences();
    assert.ok(sentences.length > 40, `the placeholder's sentences are found: ${sentences.length}`);
    assert.ok(sentences.includes(MOVED.en['hero.lead']) && sentences.includes(MOVED.de['hero.lead']));
    for (const path of ['/', '/de/']) {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
      await page.goto(`${suite.server.url}${path}`);
      await page.locator('footer').waitFor();
      const said = await everythingSaid(page);
      assert.ok(said.includes([...PLACEHOLDER.profile.intro].reverse().join('')), 'the page shows the changed intro');
      const left = sentences.filter((sentence) => said.includes(sentence));
      assert.deepEqual(left, [], `${path} still says the placeholder's words`);
      assert.deepEqual(errors, []);
      await close();
    }
  });

  test("each section's heading and lead, the intro and the footer are edited in their parts and published", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    const bar = page.getByRole('region', { name: 'Draft and live page' });
    const saved = () => bar.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });

    await page.goto(`${suite.server.url}/dashboard?view=page&part=profile`);
    const intro = page.getByRole('region', { name: 'Profile' }).getByLabel('Intro', { exact: true });
    await intro.fill('I build Django sites for small museums, and keep them fast.');
    await saved();

    await page.goto(`${suite.server.url}/dashboard?view=page&part=skills`);
    // Folded to the heading, as a list's items are: opened by its summary.
    const words = page.locator('details', { has: page.locator('summary', { hasText: 'Heading and lead' }) });
    await words.locator('summary').click();
    await words.getByLabel('Heading', { exact: true }).fill('Toolbox');
    await words.getByLabel('Lead', { exact: true }).fill('');
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);
    await saved();

    await page.goto(`${suite.server.url}/dashboard?view=page&part=footer`);
    const footer = page.getByRole('region', { name: 'Footer' });
    await footer.getByLabel('Title', { exact: true }).fill('Workshop');
    await footer.getByLabel('First year of the copyright').selectOption('2020');
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);
    await saved();
    await bar.getByText('5 changes not yet live', { exact: true }).click();
    const listed = await bar.getByRole('list', { name: 'Changes not yet live' }).getByRole('listitem').allInnerTexts();
    // Part by part, in the editor's order.
    assert.deepEqual(listed, ['Profile: Intro', 'Skills: Lead', 'Skills: Heading', 'Footer: First year of the copyright', 'Footer: Title']);

    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();

    await page.goto(suite.server.url);
    await page.getByText('I build Django sites for small museums, and keep them fast.').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Toolbox' }).waitFor();
    assert.equal(await page.getByText('The tools I reach for every day', { exact: false }).count(), 0, 'an empty lead shows nothing');
    const copyright = await page.locator('footer').innerText();
    assert.match(copyright, /Workshop/);
    assert.match(copyright, new RegExp(`© 2020–${new Date().getUTCFullYear()} `));
    assert.deepEqual(errors, []);
    await close();
  });
});
