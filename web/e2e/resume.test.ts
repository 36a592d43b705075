/**
 * Browser tests of the resume made from the page: the owner picks its sections and pages in the
 * editor's Resume part, previews it (its text, its pages, what does not fit), publishes, and a
 * visitor's Download Resume gives the new PDF, read back with poppler's `pdftotext` (`make
 * pdf-tools`).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
