/**
 * Browser tests of a project's case study in the dashboard's Page tab, against the real server:
 * the owner begins one from its project, fills every field (a decision, a figure, two pictures
 * uploaded in place, a link), sees problems (the editor's and the server's) counted and fixed,
 * publishes it, and the public API serves it; a changed address publishes; each failure says what
 * to do next.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, publishLanguages, signIn } from './helpers.ts';
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

interface CaseStudy {
  project: string;
  slug: string;
  formerSlugs?: string[];
  summary: string;
  problem: string;
  decisions: { title: string; why: string }[];
  figures: { value: number; unit: string; label: string }[];
  gallery: { image: string; caption: string }[];
  links: { kind: string; label: string; url: string }[];
  technologies: string[];
  media: { id: string; alt: string; sources: { src: string }[] }[];
}

/** axe over the editor, its preview (the public page in a frame, checked by its own tests) left out. */
function editorViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { exclude: 'iframe' });
}

function partsList(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Parts of the page' });
}

/** The case study's form (its save status and publishing are above it, in its region). */
function caseStudy(page: Page, title: string): Locator {
  return page.getByRole('region', { name: `Case study: ${title}` });
}

/** Waits for the case study's save status to say everything is saved (a save's round trip; generous for a loaded machine). */
async function allSaved(region: Locator) {
  await region.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 60_000 });
}

async function publishCaseStudy(page: Page, region: Locator) {
  await region.getByRole('button', { name: 'Publish the case study', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the case study?' });
  await dialog.getByRole('button', { name: 'Publish the case study now' }).click();
}

/** A PNG of `width`×`height` with a pattern of its own. */
function png(width: number, height: number, seed: number): Buffer {
  const pixels = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * seed) % 256));
  return Buffer.from(encodePng(pixels, width, height) as Uint8Array);
}

async function served(server: RunningServer, project: string): Promise<{ status: number; body: { version: number; document: CaseStudy } }> {
  const response = await fetch(`${server.url}/api/content/case-studies/${project}`);
  return { status: response.status, body: (await response.json()) as { version: number; document: CaseStudy } };
}

describe("the case study editor", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the owner begins a case study from its project, fills every field with a figure and two pictures, fixes its problems, publishes, and changes its address', async () => {
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=projects`);
    await page.getByRole('heading', { level: 2, name: 'Projects' }).waitFor();

    // The third project has no case study: its item says so and offers to begin one.
    const project = page.getByRole('region', { name: /^Project 3: Elegant Context/ });
    await project.getByRole('button', { name: /^Project 3: Elegant Context/ }).click();
    await project.getByText('None yet.').waitFor();
    await project.getByRole('link', { name: 'Begin a case study' }).click();
    await page.waitForURL(/[?&]case=elegant-context\b/);
    const region = caseStudy(page, 'Elegant Context');
    await region.getByRole('heading', { level: 2, name: 'Case study: Elegant Context' }).waitFor();
    // The parts list shows it below Projects, as the current place.
    assert.equal(await partsList(page).locator('[aria-current="page"]').innerText(), 'Case study: Elegant Context');
    // Its address is made from the project's title, and kept for editing.
    const address = region.getByLabel('Address', { exact: true });
    assert.equal(await address.inputValue(), 'elegant-context');
    assert.deepEqual(await editorViolations(page), []);

    // The required texts but the outcome: after the autosave's try, the missing one is counted and named.
    await region.getByLabel('Summary', { exact: true }).fill('A design system rebuilt so that three product teams ship the same components.');
    await region.getByLabel('The problem', { exact: true }).fill('Three teams kept **three** copies of every button.');
    await region.getByLabel('Your role', { exact: true }).fill('- Led the rewrite\n- Wrote the migration guide');
    await region.getByRole('status').filter({ hasText: 'Not saved: one field needs attention' }).waitFor({ timeout: 60_000 });
    await partsList(page).getByRole('link', { name: 'Case study: Elegant Context, 1 problem' }).waitFor();
    await region.getByText('The outcome must not be empty.').waitFor();
    assert.equal(await region.getByLabel('The outcome', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await editorViolations(page), []);
    // The summary's link goes to the field.
    await region.getByRole('link', { name: 'Case study: outcome', exact: true }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-outcome');
    await page.keyboard.type('Every team ships from one library.');
    await allSaved(region);
    assert.equal(await partsList(page).getByRole('link', { name: /problem/ }).count(), 0);

    // The server's checks land on their field too: raw HTML in a Markdown text is refused.
    await region.getByLabel('The team', { exact: true }).fill('Me and <b>two</b> designers.');
    await region.getByText(/^Write the text without HTML tags \(found <b>\)/).waitFor({ timeout: 60_000 });
    await partsList(page).getByRole('link', { name: 'Case study: Elegant Context, 1 problem' }).waitFor();
    assert.equal(await region.getByLabel('The team', { exact: true }).getAttribute('aria-invalid'), 'true');
    await region.getByLabel('The team', { exact: true }).fill('Me and **two** designers.');
    await allSaved(region);

    // A decision, a figure (its number checked as one), a link and the technologies.
    await region.getByRole('button', { name: 'Add a decision' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'field-decisions-0-title');
    await page.keyboard.type('Tokens before components');
    await region.getByLabel('Why', { exact: true }).fill('Colours and spacing had drifted apart first.');
    await region.getByRole('button', { name: 'Add a figure' }).click();
    const number = region.getByLabel('Number', { exact: true });
    await number.fill('about 38');
    await region.getByText('Number must be a number, such as 38 or 1.5.').waitFor({ timeout: 60_000 });
    await number.fill('38');
    await region.getByLabel('Unit', { exact: true }).fill('%');
    await region.getByLabel('What it measures', { exact: true }).fill('less CSS shipped');
    await region.getByRole('button', { name: 'Add a link' }).click();
    await region.getByLabel('Kind', { exact: true }).selectOption('live');
    await region.getByLabel('Label', { exact: true }).fill('The live library');
    await region.getByLabel('Link address', { exact: true }).fill('https://example.com/library');
    await region.getByLabel('Technologies', { exact: true }).fill('TypeScript, CSS');

    // Two pictures uploaded in place, each described, one with a caption.
    const gallery = region.getByRole('region', { name: 'Gallery' });
    for (const [i, seed] of [
      [1, 7],
      [2, 11],
    ] as const) {
      await gallery.getByLabel('Add a picture to the gallery', { exact: true }).setInputFiles({ name: `shot-${i}.png`, mimeType: 'image/png', buffer: png(640, 400, seed) });
      const picture = gallery.getByRole('region', { name: `Picture ${i}` });
      await picture.locator('img[src^="/media/"]').waitFor();
      // Its description is asked for at once.
      await page.waitForFunction(() => document.activeElement?.id.startsWith('field-media-') && document.activeElement.id.endsWith('-alt'));
      await page.keyboard.type(`Screenshot ${i} of the component library`);
    }
    await gallery.getByRole('region', { name: 'Picture 1' }).getByLabel('Caption', { exact: true }).fill('The button, before and after.');
    await allSaved(region);
    assert.deepEqual(await editorViolations(page), []);

    // The preview beside the form is the case study's own page as the saved draft would publish
    // it, at a phone's width and then a desktop's.
    const inner = page.frameLocator('iframe[title^="Preview of the draft"]');
    await inner.locator('article[data-case-study="elegant-context"]').waitFor();
    await inner.getByRole('heading', { level: 1, name: 'Elegant Context' }).waitFor();
    await inner.getByText('A design system rebuilt so that three product teams ship the same components.').waitFor();
    assert.equal(await inner.locator('html').evaluate(() => window.innerWidth), 390);
    assert.equal(await inner.locator('article dl dd').count(), 1);
    assert.equal(await inner.locator('article figure img[src^="/media/"]').count(), 2);
    await page.getByRole('group', { name: 'Preview width' }).getByRole('button', { name: 'Desktop' }).click();
    await page.waitForFunction(() => document.querySelector('iframe[title^="Preview of the draft"]')?.getAttribute('width') === '1280');
    await inner.getByRole('heading', { level: 1, name: 'Elegant Context' }).waitFor();
    assert.equal(await inner.locator('html').evaluate(() => window.innerWidth), 1280);

    // Nothing is served before it is published.
    assert.equal((await served(suite.server, 'elegant-context')).status, 404);
    await publishCaseStudy(page, region);
    await region.getByRole('status').filter({ hasText: /^Published version 1\./ }).waitFor();
    await region.getByText('Published: version 1').waitFor();
    let live = await served(suite.server, 'elegant-context');
    assert.equal(live.status, 200);
    const study = live.body.document;
    assert.equal(study.slug, 'elegant-context');
    assert.equal(study.summary, 'A design system rebuilt so that three product teams ship the same components.');
    assert.deepEqual(study.decisions, [{ title: 'Tokens before components', why: 'Colours and spacing had drifted apart first.' }]);
    assert.deepEqual(study.figures, [{ value: 38, unit: '%', label: 'less CSS shipped' }]);
    assert.deepEqual(study.links, [{ kind: 'live', label: 'The live library', url: 'https://example.com/library' }]);
    assert.deepEqual(study.technologies, ['TypeScript', 'CSS']);
    assert.equal(study.gallery.length, 2);
    assert.equal(study.gallery[0]!.caption, 'The button, before and after.');
    for (const [i, picture] of study.gallery.entries()) {
      const item = study.media.find((m) => m.id === picture.image)!;
      assert.equal(item.alt, `Screenshot ${i + 1} of the component library`);
      assert.match(item.sources[0]!.src, /^\/media\//);
    }

    // A changed address publishes, the old one kept to send its visitors on.
    await address.fill('design-system-rewrite');
    await allSaved(region);
    await publishCaseStudy(page, region);
    await region.getByRole('status').filter({ hasText: /^Published version 2\./ }).waitFor();
    live = await served(suite.server, 'elegant-context');
    assert.equal(live.body.document.slug, 'design-system-rewrite');
    assert.deepEqual(live.body.document.formerSlugs, ['elegant-context']);
    // Both versions are listed, the newest live.
    const versions = region.getByRole('table', { name: 'Published versions, newest first' });
    await versions.getByRole('button', { name: 'Revert to version 1' }).waitFor();
    assert.deepEqual(await editorViolations(page), []);

    // A visitor follows the card's "Read the case study" to what the owner wrote, reads it on a
    // phone and a laptop in both schemes (the figure, both pictures), and goes back to the card.
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const visitor = await openPage(suite.browser, suite.server, { viewport });
      await visitor.page.goto(`${suite.server.url}/`);
      const read = visitor.page.getByRole('link', { name: 'Read the case study of Elegant Context' });
      await read.scrollIntoViewIfNeeded();
      await read.click();
      await visitor.page.waitForURL(`${suite.server.url}/projects/design-system-rewrite/`);
      const article = visitor.page.locator('article[data-case-study="elegant-context"]');
      await article.getByRole('heading', { level: 1, name: 'Elegant Context' }).waitFor();
      await hydrated(visitor.page);
      assert.equal(await article.locator('dl dd').count(), 1, 'the figure');
      assert.equal(await article.locator('figure img').count(), 2, 'both pictures');
      const loaded = await visitor.page.evaluate(async () => {
        const shown = [...document.querySelectorAll<HTMLImageElement>('article figure img')];
        return Promise.all(shown.map((img) => (img.scrollIntoView({ block: 'center' }), img.decode().then(() => img.naturalWidth > 0, () => false))));
      });
      assert.deepEqual(loaded, [true, true]);
      const overflow = await visitor.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${viewport.width} px: ${overflow} px wider than the screen`);
      assert.deepEqual(await axeViolations(visitor.page), [], `${viewport.width} px, dark`);
      await visitor.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' }).click();
      await visitor.page.waitForFunction(() => document.documentElement.dataset.scheme === 'light');
      await visitor.page.waitForTimeout(400);
      assert.deepEqual(await axeViolations(visitor.page), [], `${viewport.width} px, light`);
      await visitor.page.getByRole('link', { name: 'Back to the projects' }).click();
      await visitor.page.waitForURL(`${suite.server.url}/#projects`);
      assert.deepEqual(visitor.errors, []);
      assert.deepEqual(visitor.foreignRequests, []);
      await visitor.close();
    }

    // Back at the projects, its project says it is published.
    await region.getByRole('link', { name: 'Back to the projects' }).click();
    await page.getByRole('heading', { level: 2, name: 'Projects' }).waitFor();
    const again = page.getByRole('region', { name: /^Project 3: Elegant Context/ });
    await again.getByRole('button', { name: /^Project 3: Elegant Context/ }).click();
    await again.getByText('Published, version 2.').waitFor();
    await again.getByRole('link', { name: 'Edit the case study' }).waitFor();
    // The one failed request is the save the server refused for its raw HTML, once (not sent again until the field changed).
    assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
    assert.deepEqual(foreignRequests, []);
    await close();
  });

  test("a case study of a project the live page does not have yet says to publish the page first; one the saved draft does not have says so", async () => {
    // The page's draft gains a project, saved but not published (as the editor would save it).
    const cookie = await ownerCookie(suite.server);
    const draft = (await (await fetch(`${suite.server.url}/api/content/draft`, { headers: { Cookie: cookie } })).json()) as {
      revision: number;
      document: { projects: Record<string, unknown>[] };
    };
    draft.document.projects.push({ ...draft.document.projects[0]!, id: 'garden-planner', title: 'Garden Planner' });
    const put = await fetch(`${suite.server.url}/api/content/draft`, {
      method: 'PUT',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'If-Match': `"${draft.revision}"`, Origin: suite.server.url },
      body: JSON.stringify(draft.document),
    });
    assert.equal(put.status, 200, await put.text());

    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=projects&case=garden-planner`);
    const region = caseStudy(page, 'Garden Planner');
    await region.getByLabel('Summary', { exact: true }).fill('Plans a vegetable garden by season.');
    await region.getByLabel('The problem', { exact: true }).fill('Seed packets disagree.');
    await region.getByLabel('Your role', { exact: true }).fill('All of it.');
    await region.getByLabel('The outcome', { exact: true }).fill('A calendar per bed.');
    await allSaved(region);
    await publishCaseStudy(page, region);
    await region
      .getByRole('alert')
      .filter({ hasText: 'Not published: this project is not on the live page yet. Publish the page with this project first, then its case study.' })
      .waitFor();
    assert.equal((await served(suite.server, 'garden-planner')).status, 404);
    assert.deepEqual(await editorViolations(page), []);

    // A project the saved draft does not have (an id typed into the address, or not saved yet).
    await page.goto(`${suite.server.url}/dashboard?view=page&part=projects&case=no-such-project`);
    await page
      .getByRole('alert')
      .filter({ hasText: "The case study could not be opened: this project is not in the page's saved draft yet." })
      .waitFor();
    assert.deepEqual(await editorViolations(page), []);
    await close();
  });
});

describe("a case study's translations", () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test("the owner edits the placeholder's case study, translates it into German beside its own texts, and the German page shows it while the Arabic one does not", async () => {
    await publishLanguages(suite.server);
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=projects`);
    // The placeholder's project has the placeholder's example, not nothing.
    const project = page.getByRole('region', { name: /^Project 1: Portfolio/ });
    await project.getByRole('button', { name: /^Project 1: Portfolio/ }).click();
    await project.getByText("The placeholder's example.").waitFor();
    await project.getByRole('link', { name: 'Edit the case study' }).click();
    const region = caseStudy(page, 'Portfolio');
    const summary = region.getByLabel('Summary', { exact: true });
    await summary.waitFor();
    assert.notEqual(await summary.inputValue(), '', "the placeholder's summary");
    await region.getByText("The placeholder's example: publish it to make it yours").waitFor();

    // German and Arabic are the page's: each has its part, nothing translated yet.
    const translations = region.getByRole('region', { name: 'Translations', exact: true });
    const german = translations.getByRole('region', { name: 'German (de)' });
    const arabic = translations.getByRole('region', { name: 'Arabic (ar)' });
    await german.getByText(/texts are missing before the German page shows the case study/).waitFor();
    await arabic.getByText(/texts are missing before the Arabic page shows the case study/).waitFor();
    await german.getByText("Until every text is translated, the German page shows the project's card without a link to the case study.").waitFor();
    assert.deepEqual(await editorViolations(page), []);

    // Opened, every text is beside its field; a figure's unit can stay as it is.
    await german.getByRole('button', { name: 'Translate the case study into German' }).click();
    const units = german.getByRole('checkbox', { name: /^Figure \d+: unit: Same as in English$/ });
    for (const unit of await units.all()) await unit.check();
    const fields = german.locator('#field-translations-0-texts').locator('input:not([type="checkbox"]), textarea');
    const count = await fields.count();
    assert.ok(count >= 6, `${count} texts to translate`);
    for (let i = 0; i < count; i += 1) {
      const field = fields.nth(i);
      assert.equal(await field.getAttribute('lang'), 'de');
      await field.fill(`Deutsch ${i + 1}`);
    }
    // A translation is bounded like its field: named in the summary of problems, as “German: …”.
    await german.getByLabel('Summary, in German', { exact: true }).fill('lang '.repeat(70));
    await region.getByRole('link', { name: 'German: Summary', exact: true }).waitFor({ timeout: 60_000 });
    assert.equal(await german.getByLabel('Summary, in German', { exact: true }).getAttribute('aria-invalid'), 'true');
    await german.getByLabel('Summary, in German', { exact: true }).fill('Eine Website, die sich selbst erklärt.');
    await german.getByText('Every text is translated.').waitFor();
    await german.getByText('Shown at /de/projects/portfolio/ once the case study is published.').waitFor();
    await allSaved(region);
    assert.deepEqual(await editorViolations(page), []);

    await publishCaseStudy(page, region);
    await region.getByRole('status').filter({ hasText: /^Published version 1\./ }).waitFor();
    const stored = await served(suite.server, 'portfolio');
    const [translation] = (stored.body.document as unknown as { translations: { tag: string; texts: Record<string, string>; same?: string[] }[] }).translations;
    assert.equal(translation!.tag, 'de');
    assert.equal(translation!.texts.summary, 'Eine Website, die sich selbst erklärt.');
    assert.ok(translation!.same?.every((path) => /^figures\[\d+\]\.unit$/.test(path)));

    // The visitor: the German card links to its case study, in German; the Arabic one does not.
    const visitor = await openPage(suite.browser, suite.server);
    await visitor.page.goto(`${suite.server.url}/de/`);
    await visitor.page.locator('a[href="/de/projects/portfolio/"]').first().waitFor({ state: 'attached' });
    await visitor.page.goto(`${suite.server.url}/de/projects/portfolio/`);
    await visitor.page.getByText('Eine Website, die sich selbst erklärt.').waitFor();
    assert.equal(await visitor.page.locator('html').getAttribute('lang'), 'de');
    await visitor.page.goto(`${suite.server.url}/ar/`);
    await visitor.page.locator('#projects').waitFor({ state: 'attached' });
    assert.equal(await visitor.page.locator('a[href^="/ar/projects/"]').count(), 0);
    assert.equal((await fetch(`${suite.server.url}/ar/projects/portfolio/`)).status, 404);
    await visitor.close();
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(errors, []);
    await close();
  });
});
