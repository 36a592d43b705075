/**
 * Browser tests of the page's two schemes: the visitor's toggle (nothing stored before it is
 * pressed, the choice kept after), the owner's default (dark, light or the visitor's system
 * setting) painted from the first frame, and both schemes free of axe findings.
 */
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, publishDraft, signIn } from './helpers.ts';

/** The page's background in each scheme, as sRGB bytes. */
const DARK_PAGE = [3, 7, 18];
const LIGHT_PAGE = [249, 250, 251];

/** Whether two colours are the same within a step of rounding (the dark scheme's is given in lab()). */
function near(actual: number[], expected: readonly number[]): boolean {
  return actual.length === 3 && actual.every((value, i) => Math.abs(value - expected[i]!) <= 2);
}

/** The page's background as sRGB bytes, read back through a canvas, whatever syntax the CSS used. */
function pageBackground(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  });
}

/** The colour of the screenshot's top-left pixel (a 1x1 PNG: its one row needs no unfiltering). */
async function cornerPixel(page: Page): Promise<[number, number, number]> {
  const png = await page.screenshot({ clip: { x: 2, y: 80, width: 1, height: 1 }, type: 'png' });
  let offset = 8;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') data.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  return [raw[1]!, raw[2]!, raw[3]!];
}

/**
 * Records the page's background and scheme at its first animation frame, which comes before the
 * first paint: what the visitor sees first.
 */
async function recordFirstFrame(page: Page) {
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      const context = document.createElement('canvas').getContext('2d')!;
      context.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
      context.fillRect(0, 0, 1, 1);
      (window as unknown as { firstFrame: string }).firstFrame = JSON.stringify({
        scheme: document.documentElement.getAttribute('data-scheme'),
        background: [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)],
      });
    });
  });
}

/** Asserts the first frame's scheme and background. */
async function firstFrameIs(page: Page, scheme: string, background: readonly number[]) {
  await page.waitForFunction(() => (window as unknown as { firstFrame?: string }).firstFrame);
  const first = JSON.parse(await page.evaluate(() => (window as unknown as { firstFrame: string }).firstFrame)) as {
    scheme: string | null;
    background: number[];
  };
  assert.equal(first.scheme, scheme);
  assert.ok(near(first.background, background), `the first frame's background is ${first.background.join(', ')}`);
}

/** Waits for the colour transitions a switch of scheme starts (links ease into their new colour). */
async function transitionsDone(page: Page) {
  await page.evaluate(async () => {
    // The sections not yet drawn (content-visibility: auto) take the new colours, through their
    // transitions, when they come near the screen: all drawn here, as a visitor who scrolls sees
    // them, so that axe reads the colours they end with.
    for (const section of document.querySelectorAll<HTMLElement>('#main > section')) section.style.contentVisibility = 'visible';
    // Transitions only (the badge's ping runs for ever); one replaced by another ends as aborted.
    while (document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')) {
      await Promise.allSettled(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished));
    }
  });
}

async function storage(page: Page): Promise<{ local: number; session: number; cookies: number }> {
  const counts = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
  return { ...counts, cookies: (await page.context().cookies()).length };
}

/** Publishes the placeholder document with its appearance changed, through the API. */
async function publishAppearance(server: RunningServer, change: (appearance: Record<string, unknown>) => void) {
  let scheme = '';
  await publishDraft(
    server,
    (document) => {
      const appearance = document.appearance as Record<string, unknown>;
      change(appearance);
      scheme = String(appearance.scheme);
    },
    async () => (await (await fetch(`${server.url}/page-data.json`)).text()).includes(`"scheme":"${scheme}"`),
  );
}

describe('the schemes', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the page is dark by default; the toggle turns it light, remembers only then, and the choice survives a reload', async () => {
    const { page, errors, close } = await openPage(suite.browser, suite.server, { colorScheme: 'light' });
    await recordFirstFrame(page);
    await page.goto(suite.server.url + '/');
    await hydrated(page);
    // The owner's default (dark) wins over the browser's light setting, from the first frame.
    await firstFrameIs(page, 'dark', DARK_PAGE);
    const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    // Nothing is stored before the visitor presses anything.
    assert.deepEqual(await storage(page), { local: 0, session: 0, cookies: 0 });
    assert.deepEqual(await axeViolations(page), []);

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.ok(near(await pageBackground(page), LIGHT_PAGE));
    assert.deepEqual(await storage(page), { local: 1, session: 0, cookies: 0 });
    assert.equal(await page.evaluate(() => localStorage.getItem('portfolio:scheme')), 'light');
    // Colours only: nothing moved.
    const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
    await toggle.click();
    assert.deepEqual(await page.getByRole('heading', { level: 1 }).boundingBox(), heading);
    await toggle.click();
    await transitionsDone(page);
    assert.deepEqual(await axeViolations(page), [], 'the light scheme');

    await page.reload();
    await hydrated(page);
    await firstFrameIs(page, 'light', LIGHT_PAGE);
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.ok(near(await cornerPixel(page), LIGHT_PAGE));
    assert.deepEqual(errors, []);
    await close();
  });

  test("with the owner's default set to the system, a browser that prefers light sees light from the first frame", async () => {
    await publishAppearance(suite.server, (appearance) => void (appearance.scheme = 'system'));
    for (const [preference, scheme, background] of [
      ['light', 'light', LIGHT_PAGE],
      ['dark', 'dark', DARK_PAGE],
    ] as const) {
      const { page, errors, close } = await openPage(suite.browser, suite.server, { colorScheme: preference });
      await recordFirstFrame(page);
      await page.goto(suite.server.url + '/');
      assert.equal(await page.locator('meta[name="color-scheme"]').getAttribute('content'), 'light dark');
      await firstFrameIs(page, scheme, background);
      assert.ok(near(await cornerPixel(page), background), `${preference}: the first screenshot`);
      await hydrated(page);
      assert.deepEqual(await storage(page), { local: 0, session: 0, cookies: 0 });
      assert.deepEqual(await axeViolations(page), [], `${preference} preferred`);
      assert.deepEqual(errors, []);
      await close();
    }
    await publishAppearance(suite.server, (appearance) => void (appearance.scheme = 'dark'));
  });

  test("with the owner's default set to light, the page is light even without JavaScript", async () => {
    await publishAppearance(suite.server, (appearance) => void (appearance.scheme = 'light'));
    const { page, close } = await openPage(suite.browser, suite.server, { javaScriptEnabled: false });
    await page.goto(suite.server.url + '/');
    assert.ok(near(await pageBackground(page), LIGHT_PAGE));
    await close();
    await publishAppearance(suite.server, (appearance) => void (appearance.scheme = 'dark'));
  });

  test('an accent that fails contrast is refused beside its field with its ratio and the nearest shade that passes, taken in one click; a hidden section leaves the page and the navigation', async () => {
    const owner = await openPage(suite.browser, suite.server);
    await signIn(owner.page, suite.server);
    await owner.page.goto(`${suite.server.url}/dashboard?view=page&part=appearance`);
    const part = owner.page.getByRole('region', { name: 'Appearance' });
    const accent = part.getByLabel('Accent colour', { exact: true });
    await accent.fill('#ffcc00');
    const problem = part.getByText(/^White text on the accent #ffcc00 has a contrast of 1\.\d:1\. It needs at least 4\.5:1\./);
    await problem.waitFor();
    assert.equal(await accent.getAttribute('aria-invalid'), 'true');
    await owner.page.getByRole('navigation', { name: 'Parts of the page' }).getByRole('link', { name: 'Appearance, 1 problem' }).waitFor();
    // The summary above the editor names the field in a few words; the sentence is beside the field.
    await owner.page.getByRole('link', { name: 'Appearance: accent', exact: true }).waitFor();
    const field = await accent.boundingBox();
    const said = await problem.boundingBox();
    assert.ok(field && said && said.width <= field.width + 1 && said.y > field.y, `beside its field: ${JSON.stringify({ field, said })}`);
    assert.deepEqual(await axeViolations(owner.page, { exclude: 'iframe' }), []);

    // The nearest shade that passes (the server's, with the same hue), in one click; the draft saves.
    await part.getByRole('button', { name: 'Use #917300 instead' }).click();
    assert.equal(await accent.inputValue(), '#917300');
    await owner.page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 30_000 });
    assert.equal(await problem.count(), 0);
    assert.equal(await accent.getAttribute('aria-invalid'), null);
    const draft = await owner.page.evaluate(async () => (await (await fetch('/api/content/draft')).json()) as { document: { appearance: { accent: string } } });
    assert.equal(draft.document.appearance.accent, '#917300');

    await accent.fill('#0f766e');
    await part.getByRole('checkbox', { name: 'Projects', exact: true }).uncheck();
    await part.getByRole('checkbox', { name: /Available for new projects/ }).uncheck();
    await owner.page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 10_000 });
    await owner.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await owner.page.getByRole('dialog', { name: 'Publish the draft?' }).getByRole('button', { name: 'Publish now' }).click();
    await owner.page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();
    await owner.close();

    const { page, errors, close } = await openPage(suite.browser, suite.server);
    await page.goto(suite.server.url + '/');
    await hydrated(page);
    assert.equal(await page.locator('#projects').count(), 0);
    const nav = page.getByRole('navigation', { name: 'Main' });
    assert.deepEqual(await nav.getByRole('list').first().getByRole('link').allInnerTexts(), ['Home', 'About', 'Skills', 'Experience', 'Contact']);
    assert.equal(await page.getByRole('link', { name: 'View My Work' }).count(), 0);
    assert.equal(await page.getByText('Available for new projects').count(), 0);
    // The accent is the page's: the primary buttons are drawn in it.
    const button = page.locator('#home .btn-primary').first();
    assert.equal(await button.evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(15, 118, 110)');
    assert.deepEqual(await axeViolations(page), []);
    await nav.getByRole('button', { name: 'Light scheme' }).click();
    await transitionsDone(page);
    assert.deepEqual(await axeViolations(page), [], 'the light scheme, with the accent');
    assert.deepEqual(errors, []);
    await close();
  });
});
