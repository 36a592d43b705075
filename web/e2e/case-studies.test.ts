/**
 * Browser tests of the case studies' pages, against the real server: a visitor follows a card's
 * "Read the case study" to its pre-rendered page, reads it on a phone and a laptop in both
 * schemes (axe clean, nothing wider than the screen, every picture loaded, no request elsewhere),
 * and goes back to the card; the page is whole without JavaScript; its link preview is an image;
 * a case study translated into German has its page at `/de/projects/<slug>/` with its alternates
 * and a language menu that leads to the same case study; a changed slug's old address lands on
 * the new one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openPage, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated, settledBrotliBytes } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, publishLanguages } from './helpers.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

/**
 * Whether every picture of the page loads: each brought into view in turn (they load lazily) and
 * waited for until it is decoded, however long a loaded machine takes.
 */
async function allPicturesLoaded(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const loaded: boolean[] = [];
    for (const image of [...document.images]) {
      image.scrollIntoView({ block: 'center', behavior: 'instant' });
      loaded.push(await image.decode().then(() => image.naturalWidth > 0, () => false));
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return loaded.every(Boolean);
  });
}

/** Writes and publishes `project`'s case study through the API, as the editor does. */
async function publishCaseStudy(server: RunningServer, study: Record<string, unknown>): Promise<void> {
  const cookie = await ownerCookie(server);
  const headers = { Cookie: cookie, 'Content-Type': 'application/json', Origin: server.url };
  const path = `${server.url}/api/content/case-studies/${String(study.project)}`;
  const draft = (await (await fetch(`${path}/draft`, { headers })).json()) as { revision: number };
  const put = await fetch(`${path}/draft`, {
    method: 'PUT',
    headers: { ...headers, 'If-Match': `"${draft.revision}"` },
    body: JSON.stringify(study),
  });
  assert.equal(put.status, 200, await put.text());
  const publish = await fetch(`${path}/publish`, { method: 'POST', headers });
  assert.equal(publish.status, 200, await publish.text());
}

const GERMAN = {
  summary: 'Ein Checkout, der keine Warenkörbe mehr verlor.',
  problem: 'Warenkörbe gingen beim Bezahlen *verloren*.',
  role: 'Ich leitete die Neuentwicklung.',
  outcome: 'Der Umsatz stieg.',
  'decisions[0].title': 'Ein Dienst',
  'decisions[0].why': 'Weniger Umwege.',
  'figures[0].label': 'weniger abgebrochene Warenkörbe',
};

function checkout(slug: string): Record<string, unknown> {
  return {
    project: 'portfolio',
    slug,
    summary: 'A checkout that stopped losing carts.',
    problem: 'Carts were *lost* at the payment step, one in five.',
    role: 'I led the rewrite.',
    outcome: 'Sales went up.',
    decisions: [{ title: 'One service', why: 'Fewer hops.' }],
    figures: [{ value: 1200.5, unit: 'ms', label: 'fewer abandoned carts' }],
    technologies: ['Rust'],
    translations: [{ tag: 'de', texts: GERMAN, same: ['figures[0].unit'] }],
  };
}

describe('case studies', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  for (const [name, options] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    test(`a visitor follows a card to its case study and back, on a ${name}, in both schemes`, async () => {
      const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server, options);
      await page.goto(suite.server.url + '/');
      await hydrated(page);
      const card = page.getByRole('link', { name: 'Read the case study of Portfolio' });
      await card.scrollIntoViewIfNeeded();
      await card.click();
      await page.waitForURL(suite.server.url + '/projects/portfolio/');
      await page.getByRole('heading', { level: 1, name: 'Portfolio' }).waitFor();
      await hydrated(page);
      const article = page.locator('article[data-case-study="portfolio"]');
      for (const heading of ['The problem', 'My role', 'Decisions', 'Outcome', 'Gallery', 'Links']) {
        await article.getByRole('heading', { level: 2, name: heading }).waitFor();
      }
      // The breadcrumbs end at this page; the figures are a list of terms.
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
      assert.equal(await crumbs.getByRole('link', { name: 'Portfolio' }).getAttribute('aria-current'), 'page');
      assert.ok((await article.locator('dl dd').count()) >= 3);
      assert.ok(await allPicturesLoaded(page), 'every picture loads');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
      assert.deepEqual(await axeViolations(page), [], 'dark');

      // The header is the site's: the scheme toggle works here too.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Light scheme' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.scheme === 'light');
      await page.waitForTimeout(400);
      assert.deepEqual(await axeViolations(page), [], 'light');

      // The way to the next case study, and back to the projects' cards.
      const next = page.getByRole('navigation', { name: 'More case studies' }).getByRole('link', { name: /Next case study/ });
      assert.equal(await next.getAttribute('href'), '/projects/food-recipes/');
      await page.getByRole('link', { name: 'Back to the projects' }).click();
      await page.waitForURL(suite.server.url + '/#projects');
      await hydrated(page);
      // The projects' cards in view (where exactly the fragment's section stops is the landing
      // page's, tested in header.test.ts).
      await page.waitForFunction(
        () => {
          const rect = document.getElementById('projects')!.getBoundingClientRect();
          return rect.top < window.innerHeight / 2 && rect.bottom > window.innerHeight / 2;
        },
        undefined,
        { timeout: 15_000 },
      );
      assert.deepEqual(errors, []);
      assert.deepEqual(foreignRequests, []);
      await close();
    });
  }

  test('a case study is whole without JavaScript, and its link preview is its own picture', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { javaScriptEnabled: false });
    await page.goto(suite.server.url + '/projects/food-recipes/');
    await page.getByRole('heading', { level: 1, name: 'Food Recipes' }).waitFor();
    assert.ok(await page.getByRole('heading', { level: 2, name: 'Outcome' }).isVisible());
    const preview = await page.locator('meta[property="og:image"]').getAttribute('content');
    assert.equal(preview, `${suite.server.url}/projects/food-recipes/og-image.png`);
    // At most 13 KB as sent, as `/` is.
    for (const path of ['/projects/portfolio/', '/projects/food-recipes/']) {
      const bytes = await settledBrotliBytes(suite.server.url + path, 13 * 1024);
      console.log(`${path}: ${bytes} bytes with Brotli`);
      assert.ok(bytes <= 13 * 1024, `${path} is ${bytes} bytes with Brotli`);
    }
    const image = await page.goto(preview!);
    assert.equal(image?.status(), 200);
    assert.equal(image?.headers()['content-type'], 'image/png');
    await close();
  });

  test('a German case study has its page with its alternates, and a changed slug lands on the new address', async () => {
    const { server } = suite;
    await publishLanguages(server);
    await publishCaseStudy(server, checkout('checkout'));
    const { page, errors, close } = await openPage(suite.browser, server, PHONE);
    await page.goto(`${server.url}/de/projects/checkout/`);
    await page.getByRole('heading', { level: 2, name: 'Das Problem' }).waitFor();
    await hydrated(page);
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    assert.ok(await page.getByText('Ein Checkout, der keine Warenkörbe mehr verlor.').isVisible());
    assert.ok(await page.getByText('1.200,5').isVisible(), 'the figure written the German way');
    const alternates = await page.locator('link[rel=alternate]').evaluateAll((links) =>
      links.map((link) => `${link.getAttribute('hreflang')} ${new URL(link.getAttribute('href')!).pathname}`),
    );
    assert.deepEqual(alternates, ['en /projects/checkout/', 'de /de/projects/checkout/', 'x-default /projects/checkout/']);
    // Not translated into Arabic: left out of the Arabic pages, and out of the language menu's
    // ways to this case study.
    assert.equal((await fetch(`${server.url}/ar/projects/checkout/`)).status, 404);
    await page.getByRole('button', { name: 'Deutsch', exact: true }).click();
    const languages = page.getByRole('list', { name: 'Sprachen' });
    assert.equal(await languages.getByRole('link', { name: 'English' }).getAttribute('href'), '/projects/checkout/');
    assert.equal(await languages.getByRole('link', { name: 'العربية' }).getAttribute('href'), '/ar/');
    await page.keyboard.press('Escape');
    assert.deepEqual(await axeViolations(page), []);
    const bytes = await settledBrotliBytes(`${server.url}/de/projects/checkout/`, 13 * 1024);
    console.log(`/de/projects/checkout/: ${bytes} bytes with Brotli`);
    assert.ok(bytes <= 13 * 1024, `/de/projects/checkout/ is ${bytes} bytes with Brotli`);

    // The German card leads here.
    await page.goto(`${server.url}/de/`);
    await hydrated(page);
    assert.equal(await page.locator('a[href="/de/projects/checkout/"]').count(), 1);

    // A new slug: the old address answers with a 301 the browser follows.
    await publishCaseStudy(server, checkout('checkout-rewrite'));
    const response = await page.goto(`${server.url}/de/projects/checkout/`);
    assert.equal(page.url(), `${server.url}/de/projects/checkout-rewrite/`);
    assert.equal(response?.status(), 200);
    const redirect = await response?.request().redirectedFrom()?.response();
    assert.equal(redirect?.status(), 301);
    assert.deepEqual(errors, []);
    await close();
  });
});
