/**
 * Browser tests of the resume made from the page: the owner picks its sections and pages in the
 * editor's Resume part, previews it (its text, its pages, what does not fit), publishes, and a
 * visitor's Download Resume gives the new PDF, read back with poppler's `pdftotext` (`make
 * pdf-tools`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { DESKTOP, openPage, serverAndBrowser } from './harness.ts';
import { axeViolations, OWNER_ENV, signIn } from './helpers.ts';

describe('the resume made from the page', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the owner picks sections and pages, previews, publishes, and the page downloads the new PDF', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP, acceptDownloads: true });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=resume`);
    const part = page.getByRole('region', { name: 'Resume' });
    await part.getByRole('heading', { level: 2, name: 'Resume' }).waitFor();
    assert.equal(await part.getByLabel('A resume made from this page').isChecked(), true, 'the default');

    // Before any choice, the placeholder's resume takes two pages and everything fits.
    await part.getByRole('button', { name: 'Preview the resume' }).click();
    await part.locator('p').filter({ hasText: /^2 pages\./ }).waitFor();
    await part.getByText('Everything fits.').waitFor();
    assert.match(await part.getByLabel("The resume's text").innerText(), /Skills\n=+\nHTML5/);

    // Without skills and education, and on one page: the preview says what no longer fits.
    await part.getByLabel('Skills', { exact: true }).uncheck();
    await part.getByLabel('Education', { exact: true }).uncheck();
    await part.getByLabel('Move Projects up').click();
    await part.getByLabel('At most').selectOption('1');
    await part.getByLabel('Tuk-Tuk Cambodia', { exact: true }).uncheck();
    await part.getByRole('button', { name: 'Preview the resume' }).click();
    await part.locator('p').filter({ hasText: /^One page/ }).waitFor();
    const text = await part.getByLabel("The resume's text").innerText();
    assert.doesNotMatch(text, /^Skills$/m);
    assert.doesNotMatch(text, /Tuk-Tuk Cambodia/);
    assert.ok(text.indexOf('Projects') < text.indexOf('Work Experience'), 'Projects moved up');
    const pdfLink = part.getByRole('link', { name: 'Open the PDF (opens in a new tab)' });
    assert.equal(await pdfLink.getAttribute('href'), '/api/content/draft/resume.pdf?language=en');
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);

    // Published, the page's Download Resume gives it.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish now' }).click();
    await page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();
    const visitor = await openPage(suite.browser, suite.server, { viewport: DESKTOP, acceptDownloads: true });
    await visitor.page.goto(suite.server.url + '/');
    const downloaded = visitor.page.waitForEvent('download');
    await visitor.page.getByRole('link', { name: 'Download Resume' }).first().click();
    const download = await downloaded;
    assert.equal(download.suggestedFilename(), 'resume.pdf');
    const folder = mkdtempSync(join(tmpdir(), 'resume-'));
    try {
      const file = join(folder, 'resume.pdf');
      await download.saveAs(file);
      const pdf = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      assert.match(pdf, /Projects[\s\S]*Food Recipes[\s\S]*Work Experience[\s\S]*Analyst/);
      assert.doesNotMatch(pdf, /Tuk-Tuk Cambodia|Education|^Skills$/m);
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
      assert.match(info, /^Pages:\s+1$/m);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(visitor.errors, []);
    await visitor.close();
    await close();
  });

  test('/resume.json validates against the JSON Resume schema 1.0.0', async () => {
    // The schema is draft-04; its keywords here (types, properties, patterns, formats) read the same in Ajv's draft-07.
    const schema = JSON.parse(readFileSync(new URL('../../server/tests/resume/jsonresume-schema-1.0.0.json', import.meta.url), 'utf8'));
    delete schema.$schema;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    for (const path of ['/resume.json']) {
      const resume = await (await fetch(suite.server.url + path)).json();
      assert.equal(validate(resume), true, `${path}: ${JSON.stringify(validate.errors)}`);
      assert.ok(resume.work.length > 0 && resume.projects.length > 0, 'it has the page\'s jobs and projects');
    }
  });

  test("an application link's own resume leaves out what the owner unchecks in its details", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=applications`);
    const form = page.getByRole('form', { name: 'New link' });
    const newLink = page.getByRole('button', { name: 'New link' });
    await page.getByRole('list', { name: 'Application links' }).or(form).first().waitFor();
    if (await newLink.isVisible()) await newLink.click();
    await form.getByLabel('Company').fill('Initech');
    await form.getByLabel('Role').fill('Frontend Developer');
    await form.getByRole('button', { name: 'Create link' }).click();
    const ready = page.getByRole('status').filter({ hasText: 'The link for Initech, Frontend Developer is ready' });
    await ready.waitFor();
    const address = (await ready.locator('code').textContent()) ?? '';
    const item = page.getByRole('listitem').filter({ hasText: 'Initech, Frontend Developer' });
    await item.getByRole('button', { name: 'Details' }).click();
    const resume = item.getByRole('group', { name: 'Its resume' });
    await resume.getByText('The page’s resume.', { exact: false }).waitFor();
    // Each change is saved at once; the box shows the link as the server answered it.
    const food = resume.getByRole('group', { name: 'Projects' }).getByLabel('Food Recipes');
    await food.click();
    await resume.getByText('Its own:', { exact: false }).waitFor();
    await waitFor(async () => !(await food.isChecked()));
    // (The page's resume, as the test before published it, shows the summary, the projects and the jobs.)
    const work = resume.getByRole('group', { name: 'Sections' }).getByLabel('Work experience');
    await work.click();
    await waitFor(async () => !(await work.isChecked()));
    assert.deepEqual(await axeViolations(page), []);
    // Its address's resume: without them; the page's own still has them.
    const folder = mkdtempSync(join(tmpdir(), 'resume-'));
    try {
      const text = async (path: string) => {
        const response = await fetch(new URL(path, suite.server.url));
        assert.equal(response.status, 200, path);
        const file = join(folder, 'resume.pdf');
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      };
      await waitFor(async () => !(await text(`${new URL(address).pathname}/resume.pdf`)).includes('Work Experience'));
      const own = await text(`${new URL(address).pathname}/resume.pdf`);
      assert.doesNotMatch(own, /Food Recipes|Work Experience/);
      assert.match(own, /Elegant Context/);
      assert.match(await text('/resume.pdf'), /Food Recipes[\s\S]*Work Experience/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // Back to the page's.
    await resume.getByRole('button', { name: 'Use the page’s resume' }).click();
    await resume.getByText('The page’s resume.', { exact: false }).waitFor();
    assert.deepEqual(errors, []);
    await close();
  });
});

describe('moving in from another resume', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test("a JSON Resume fills the draft in the editor, lists what it could not place, and publishes nothing", async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await page.goto(`${suite.server.url}/dashboard?view=page&part=resume`);
    const part = page.getByRole('region', { name: 'Move in from another resume' });
    await part.getByLabel('A JSON Resume (.json) or your LinkedIn data export (.zip)').setInputFiles(
      fileURLToPath(new URL('../../server/tests/fixtures/resume/json-resume.json', import.meta.url)),
    );
    await part.getByRole('status').filter({ hasText: 'Your draft now holds what the file says' }).waitFor();
    const unplaced = part.getByRole('list', { name: 'Not placed on your page' });
    assert.ok((await unplaced.getByRole('listitem').count()) > 0);
    assert.match(await unplaced.innerText(), /volunteer/i);
    assert.deepEqual(await axeViolations(page, { exclude: 'iframe' }), []);
    // The editor shows the draft the file filled; the live page is as it was.
    await page.goto(`${suite.server.url}/dashboard?view=page&part=profile`);
    assert.equal(await page.getByRole('region', { name: 'Profile' }).getByLabel('Name', { exact: true }).inputValue(), 'Priya Raman');
    const live = await (await fetch(`${suite.server.url}/api/content`)).json();
    assert.equal(live.document.profile.name, 'Alex Morgan');
    // A file that is no resume is refused beside its field, the draft unchanged.
    await page.goto(`${suite.server.url}/dashboard?view=page&part=resume`);
    await part.getByLabel('A JSON Resume (.json) or your LinkedIn data export (.zip)').setInputFiles({
      name: 'notes.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"shopping": ["milk"]}'),
    });
    await part.getByRole('alert').waitFor();
    assert.match(await part.getByRole('alert').innerText(), /^Import: /);
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await close();
  });
});

/** Waits until `check` holds (the link's change reaches the directory within a poll or two). */
async function waitFor(check: () => Promise<boolean>) {
  for (let tries = 0; tries < 120; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail('never came true');
}
