/**
 * `/` rendered by the server from the published document: after a publish (here by the
 * `content import --publish` command, which the running server picks up), a visitor's page says
 * what the new document says, complete without JavaScript, and with JavaScript React hydrates it
 * from the document embedded in the page without a console message, a replaced element or a shift.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { DESKTOP, PHONE, openPage, serverAndBrowser } from './harness.ts';

const NAME = 'Robin Quill';
const PROJECT = 'Lighthouse Keeper';
const original = JSON.parse(readFileSync(resolve(import.meta.dirname, '../src/content/default-document.json'), 'utf8'));
const OLD_NAME: string = original.profile.name;

/** The default document with another owner's name and a project more. */
function published() {
  const document = structuredClone(original);
  document.profile.name = NAME;
  for (const item of document.media) if (item.id === document.profile.photo) item.alt = `Illustrated portrait of ${NAME}`;
  document.projects.push({ ...document.projects[0], id: 'lighthouse-keeper', title: PROJECT, stack: 'backend' });
  return document;
}

const WATCH = `
  window.__layoutShift = 0;
  window.__removed = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShift += entry.value;
      window.__shifted = (window.__shifted || []).concat((entry.sources || []).map((s) => (s.node && s.node.outerHTML ? s.node.outerHTML.slice(0, 100) : String(s.node)) + ' ' + JSON.stringify(s.previousRect) + ' -> ' + JSON.stringify(s.currentRect)));
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver((records) => {
    for (const record of records) {
      if (!record.target.closest || !record.target.closest('#root')) continue;
      for (const node of record.removedNodes) if (node.nodeType === 1) window.__removed.push(node.outerHTML.slice(0, 120));
    }
  }).observe(document, { childList: true, subtree: true });
`;

describe('the page the server renders from the published document', () => {
  const suite = serverAndBrowser();

  // The server asks for the newest version every 2 s, so a quiet machine serves it within 5 s (the
  // figure docs/content.md gives); the deadline allows for a loaded one, and the time is printed.
  test('a document published elsewhere is served once the server follows it', async () => {
    const file = join(suite.server.dataDir, 'content.json');
    writeFileSync(file, JSON.stringify(published()));
    const imported = suite.server.cli(['content', 'import', file, '--publish']);
    assert.equal(imported.status, 0, imported.stderr);
    const started = Date.now();
    for (;;) {
      const html = await (await fetch(suite.server.url + '/')).text();
      if (html.includes(`>${NAME}</bdi>`)) break;
      assert.ok(Date.now() < started + 60_000, 'the new page was not served within 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`the published document was served after ${Date.now() - started} ms`);
  });

  test('without JavaScript the page is complete: the new name and the new project, the old name gone', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { javaScriptEnabled: false, viewport: PHONE });
    await page.goto(suite.server.url + '/', { waitUntil: 'load' });
    assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), `Hi, I'm ${NAME}`);
    const cards = page.locator('#projects [data-testid="project-card"] h3');
    assert.deepEqual(await cards.allTextContents(), [...original.projects.map((p: { title: string }) => p.title), PROJECT]);
    assert.equal(await page.locator('#root').getByText(OLD_NAME).count(), 0, 'the old name is gone from the page');
    assert.equal(await page.locator('footer').getByRole('link', { name: NAME, exact: true }).count(), 1);
    assert.deepEqual(errors, []);
    await close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`with JavaScript it hydrates from the embedded document: no message, nothing replaced, no shift (${viewport.width} px)`, async () => {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { viewport, reducedMotion: 'reduce' });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      const requests: string[] = [];
      page.on('request', (request) => requests.push(new URL(request.url()).pathname));
      // A first visit puts the web font in the cache, so what is measured is hydration's own shift:
      // on a loaded machine a font that arrives after the first paint is still applied, and moves
      // the text (issue 47's open item, measured in docs/benchmarks.md).
      await page.goto(suite.server.url + '/', { waitUntil: 'load' });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await page.addInitScript(WATCH);
      await page.goto(suite.server.url + '/', { waitUntil: 'load' });
      await page.waitForFunction(
        () =>
          ['home', 'projects', 'contact'].every((id) => {
            const section = document.getElementById(id);
            return !!section && Object.keys(section).some((key) => key.startsWith('__reactFiber'));
          }),
        undefined,
        { timeout: 10_000 },
      );
      await page.waitForTimeout(1000);
      const watch = await page.evaluate(() => {
        const w = window as unknown as { __layoutShift: number; __removed: string[]; __shifted?: string[] };
        return { shift: w.__layoutShift, removed: w.__removed, shifted: w.__shifted ?? [] };
      });
      assert.deepEqual(messages, [], 'no console message (hydration errors and warnings included)');
      assert.deepEqual(errors, []);
      assert.deepEqual(watch.removed, [], 'hydration kept every element the server sent');
      assert.equal(watch.shift, 0, `cumulative layout shift ${watch.shift}: ${watch.shifted.join('\n')}`);
      assert.ok(!requests.includes('/api/content'), 'the document comes with the page, not by a request');
      // Hydrated from the new document: the filter knows the new project.
      const backend = page.locator('#projects').getByRole('button', { name: 'Backend' });
      await backend.click();
      const shown = await page.locator('#projects [data-testid="project-card"] h3').allTextContents();
      assert.ok(shown.includes(PROJECT), shown.join(', '));
      await close();
    });
  }

  test('the other pages read the same document: the error page carries the new name', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await page.goto(suite.server.url + '/no-such-page', { waitUntil: 'load' });
    await page.waitForFunction(
      (name) => document.title.includes(name) && !!document.querySelector('header a[href="/#home"]')?.textContent?.includes(name),
      NAME,
      { timeout: 10_000 },
    );
    await close();
  });
});
