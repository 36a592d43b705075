/**
 * The landing page's interactive pieces in a real browser at a desktop and a phone viewport:
 * the award dialog, project filters, contact card and footer links, the cursor dot and the
 * in-app browser banner.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { DESKTOP, openPage, serverAndBrowser } from './harness.ts';
import { VIEWPORTS, drawnState, focusedText, hydrated, twoFrames, visit } from './page-support.ts';
import { axeViolations } from './helpers.ts';

const UA = {
  instagramAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 Instagram 350.0.0.0 Android',
  linkedinIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.30.1',
  facebookIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.37.106]',
  twitterIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.60',
};

describe('the portfolio page, interactions', () => {
  const suite = serverAndBrowser();

  for (const { name, options } of VIEWPORTS) {
    describe(`at the ${name} viewport`, () => {
      test('an award opens its certificate in a modal dialog; Escape, Close and outside clicks close it', async () => {
        const { page, errors, close } = await visit(suite.browser, suite.server, options);
        const spot = page.getByRole('button', { name: 'Spot Award' });
        const applause = page.getByRole('button', { name: 'Applause Award' });
        const dialog = page.getByRole('dialog');
        assert.equal(await dialog.count(), 0, 'closed at first');

        const openWith = async (button: typeof spot, award: string, image: RegExp) => {
          await button.scrollIntoViewIfNeeded();
          await button.click();
          await dialog.waitFor();
          assert.equal(await dialog.evaluate((d) => d.matches(':modal')), true, 'a modal dialog');
          assert.ok(await dialog.getByRole('heading', { name: award }).isVisible());
          await dialog.getByText('Analyst', { exact: true }).waitFor();
          const src = await dialog.getByRole('img').getAttribute('src');
          assert.match(src ?? '', image);
          assert.ok(await dialog.getByRole('img').evaluate((img: HTMLImageElement) => img.width > 0));
        };
        const closedAndFocusBackOn = async (label: string) => {
          await dialog.waitFor({ state: 'detached' });
          assert.equal(await focusedText(page), label, 'focus returns to the award');
        };

        // The first award (index 0) shows the spot-award certificate; Escape closes it.
        await openWith(spot, 'Spot Award', /spot-award/);
        await page.keyboard.press('Escape');
        await closedAndFocusBackOn('Spot Award');

        // Any other award shows the applause-award certificate; the Close button closes it.
        await openWith(applause, 'Applause Award', /applause-award/);
        await dialog.getByRole('button', { name: 'Close' }).click();
        await closedAndFocusBackOn('Applause Award');

        // A click outside the panel closes it; a click inside does not.
        await openWith(spot, 'Spot Award', /spot-award/);
        await dialog.getByRole('img').click();
        assert.ok(await dialog.isVisible(), 'a click on the panel keeps it open');
        await page.mouse.click(3, 3);
        await closedAndFocusBackOn('Spot Award');
        assert.deepEqual(errors, []);
        await close();
      });

      test('project filters show the matching projects and mark the chosen one pressed', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const section = page.locator('#projects');
        assert.ok(await section.getByRole('heading', { name: 'My Projects' }).isVisible());
        assert.ok(((await section.locator('p.lead').textContent()) ?? '').length > 20, 'a tagline');
        const filters = section.getByRole('group', { name: /filter/i });
        const titles = () => section.getByTestId('project-card').locator('h3').allTextContents();
        const pressed = () =>
          filters.getByRole('button').evaluateAll((buttons) =>
            buttons.map((b) => `${b.textContent?.trim()}=${b.getAttribute('aria-pressed')}`),
          );

        assert.deepEqual(await pressed(), ['All=true', 'Frontend=false', 'Backend=false', 'Fullstack=false']);
        assert.deepEqual(await titles(), ['Portfolio', 'Food Recipes', 'Elegant Context', 'Tuk-Tuk Cambodia']);

        const expected = {
          Frontend: ['Elegant Context', 'Tuk-Tuk Cambodia'],
          Backend: ['Food Recipes'],
          Fullstack: ['Portfolio'],
          All: ['Portfolio', 'Food Recipes', 'Elegant Context', 'Tuk-Tuk Cambodia'],
        } as const;
        for (const [category, list] of Object.entries(expected)) {
          await filters.getByRole('button', { name: category }).click();
          assert.deepEqual(await titles(), list, category);
          const states = await pressed();
          assert.deepEqual(
            states.filter((s) => s.endsWith('=true')),
            [`${category}=true`],
            `only ${category} is pressed`,
          );
        }

        const cards = section.getByTestId('project-card');
        for (let i = 0; i < 4; i += 1) {
          const card = cards.nth(i);
          const title = (await card.locator('h3').textContent())!;
          await card.scrollIntoViewIfNeeded();
          assert.equal(Math.round((await card.boundingBox())!.height), 450, `${title} card is 450 px high`);
          assert.ok((await card.getByRole('list', { name: 'Technologies' }).getByRole('listitem').count()) >= 2);
          for (const link of [card.getByRole('link', { name: /^Code/ }), card.getByRole('link', { name: /^Live demo/i })]) {
            assert.match((await link.getAttribute('href')) ?? '', /^https:\/\//);
            assert.equal(await link.getAttribute('target'), '_blank');
            assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
          }
        }
        await close();
      });

      test('the contact card links to email, phone and a maps search, and Follow Me links to the profiles', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const contact = page.locator('#contact');
        assert.ok(await contact.getByRole('heading', { name: 'Get in Touch' }).isVisible());
        assert.equal(await contact.getByRole('link', { name: profile.email }).getAttribute('href'), `mailto:${profile.email}`);
        assert.equal(await contact.getByRole('link', { name: profile.phone.display }).getAttribute('href'), `tel:${profile.phone.dial}`);
        const place = contact.getByRole('link', { name: 'AP, India' });
        const maps = new URL((await place.getAttribute('href'))!);
        assert.equal(maps.hostname, 'www.google.com');
        assert.ok(maps.pathname.startsWith('/maps/search'));
        assert.equal(maps.searchParams.get('query'), profile.location.mapsQuery);
        assert.equal(await place.getAttribute('target'), '_blank');

        const follow = contact.getByRole('list', { name: 'Follow Me' }).getByRole('link');
        const links = await follow.evaluateAll((as) => as.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')]));
        assert.deepEqual(links, [
          [`${profile.name} on GitHub`, profile.links.github],
          [`${profile.name} on LinkedIn`, profile.links.linkedin],
          [`${profile.name} on X (Twitter)`, profile.links.twitter],
        ]);

        // The form is there with its labelled fields (submitting is the contact feature's business).
        const form = contact.locator('form');
        for (const label of [/^Name\b/, /^Subject\b/, /^Message\b/]) await form.getByLabel(label).first().waitFor();
        assert.equal(await form.getByLabel(/^Email\b/).first().getAttribute('type'), 'email');
        await form.getByRole('button', { name: 'Send Message' }).waitFor();
        await close();
      });

      test('the footer has its title, blurb, four named icon links and the copyright linking to the dashboard', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const footer = page.locator('footer');
        assert.ok(await footer.getByRole('heading', { name: 'Portfolio' }).isVisible());
        const blurb = (await footer.locator('p').first().textContent()) ?? '';
        for (const word of ['full-stack developer', 'React', 'Tailwind CSS', 'JavaScript']) assert.ok(blurb.includes(word), word);
        const icons = await footer
          .locator('.icon-btn')
          .evaluateAll((as) => as.map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')]));
        assert.deepEqual(icons, [
          [`${profile.name} on GitHub`, profile.links.github],
          [`${profile.name} on LinkedIn`, profile.links.linkedin],
          [`${profile.name} on X (Twitter)`, profile.links.twitter],
          [`Email ${profile.name}`, `mailto:${profile.email}`],
        ]);
        assert.match((await footer.textContent()) ?? '', /© 2025/);
        const owner = footer.getByRole('link', { name: profile.name, exact: true });
        assert.equal(await owner.getAttribute('href'), '/dashboard');
        // Scrolled to first, and clicked once the sections the scroll passed are drawn and have
        // taken their heights (content-visibility), so the click meets the link where it stays.
        await owner.scrollIntoViewIfNeeded();
        await twoFrames(page);
        await owner.click();
        await page.waitForURL(/\/(dashboard|login)$/);
        await close();
      });

      test('an ordinary browser gets no in-app banner', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        await page.waitForTimeout(300);
        assert.equal(await page.getByRole('region', { name: 'Open in your browser' }).count(), 0);
        await close();
      });
    });
  }

  describe('axe in the opened states', () => {
    test('the open award dialog has no violations', async () => {
      const { page, close } = await visit(suite.browser, suite.server, { viewport: DESKTOP });
      await page.getByRole('button', { name: 'Spot Award' }).click();
      await page.getByRole('dialog').getByRole('img').waitFor();
      await page.waitForFunction(() => (document.querySelector('dialog img') as HTMLImageElement | null)?.complete);
      assert.deepEqual(await axeViolations(page), []);
      await close();
    });

    test('the open mobile menu and the in-app banner have no violations', async () => {
      const { page, close } = await visit(suite.browser, suite.server, { ...VIEWPORTS[1].options, userAgent: UA.linkedinIos });
      await page.getByRole('region', { name: 'Open in your browser' }).waitFor();
      await page.getByRole('button', { name: /menu/i }).click();
      assert.deepEqual(await axeViolations(page), []);
      await close();
    });
  });

  describe('the cursor dot', () => {
    /** Counts the pointermove listeners on window, as the page adds and removes them. */
    const countListeners = (page: Page) =>
      page.addInitScript(() => {
        const w = window as unknown as { __pointermove: number };
        w.__pointermove = 0;
        const add = window.addEventListener;
        const remove = window.removeEventListener;
        window.addEventListener = function (this: Window, ...args: Parameters<typeof add>) {
          if (args[0] === 'pointermove') w.__pointermove += 1;
          return add.apply(this, args);
        } as typeof add;
        window.removeEventListener = function (this: Window, ...args: Parameters<typeof remove>) {
          if (args[0] === 'pointermove') w.__pointermove -= 1;
          return remove.apply(this, args);
        } as typeof remove;
      });
    const listeners = (page: Page) => page.evaluate(() => (window as unknown as { __pointermove: number }).__pointermove);

    test('follows a fine pointer, never takes clicks, hides over text fields, and stays single', async () => {
      // The listener counter is installed before any of the page's scripts run.
      const watched = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
      await countListeners(watched.page);
      await watched.page.goto(suite.server.url + '/');
      await watched.page.getByRole('heading', { level: 1 }).waitFor();
      const p = watched.page;
      const dot = p.locator('[data-cursor-dot]');
      // The page hydrates once its first screen is drawn; the dot follows moves from then on.
      await p.waitForFunction(() => (window as unknown as { __pointermove: number }).__pointermove === 1);
      await p.mouse.move(400, 300);
      await dot.waitFor({ state: 'attached' });
      assert.equal(await dot.count(), 1);
      assert.equal(await dot.evaluate((el) => getComputedStyle(el).pointerEvents), 'none');
      assert.equal(await dot.getAttribute('data-visible'), 'true');
      const box = (await dot.boundingBox())!;
      // Beside the pointer, down and to the right of its hotspot, never on what it points at.
      assert.ok(box.x > 400 && box.y > 300 && box.x - 400 <= 24 && box.y - 300 <= 24, `trails the pointer (${box.x}, ${box.y})`);

      // Clicks go through it.
      const viewWork = p.getByRole('link', { name: 'View My Work' });
      const target = (await viewWork.boundingBox())!;
      await p.mouse.move(target.x + target.width / 2, target.y + target.height / 2);
      const hit = await p.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.textContent?.trim(), [
        target.x + target.width / 2,
        target.y + target.height / 2,
      ]);
      assert.equal(hit, 'View My Work');

      // Over a text field it hides, so the text cursor shows.
      const field = p.locator('#contact textarea').first();
      await field.scrollIntoViewIfNeeded();
      // The sections that the scroll brings near the screen are drawn in a frame after it, and the
      // page keeps what is on the screen in place as they take their height: read the box then.
      await drawnState(p, '#contact textarea');
      await twoFrames(p);
      const fieldBox = (await field.boundingBox())!;
      await p.mouse.move(fieldBox.x + 20, fieldBox.y + 20);
      assert.equal(await dot.getAttribute('data-visible'), 'false');
      await p.waitForFunction(() => getComputedStyle(document.querySelector('[data-cursor-dot]')!).opacity === '0');

      // Navigating away and back (re-rendering the layout) keeps one dot and one listener.
      assert.equal(await listeners(p), 1);
      await p.locator('footer').getByRole('link', { name: profile.name, exact: true }).click();
      await p.waitForURL(/\/(dashboard|login)$/);
      await p.goBack();
      await p.getByRole('heading', { level: 1 }).waitFor();
      await hydrated(p);
      await p.mouse.move(200, 200);
      assert.equal(await p.locator('[data-cursor-dot]').count(), 1);
      assert.equal(await listeners(p), 1);
      assert.deepEqual(watched.errors, []);
      await watched.close();
    });

    test('is absent on a touch screen (no fine pointer)', async () => {
      const { page, close } = await visit(suite.browser, suite.server, VIEWPORTS[1].options);
      await page.waitForTimeout(300);
      assert.equal(await page.locator('[data-cursor-dot]').count(), 0);
      await close();
    });
  });

  describe('the in-app browser banner', () => {
    const banner = (page: Page) => page.getByRole('region', { name: 'Open in your browser' });

    test('on Android it offers a link that opens the page in the default suite.browser, and can be dismissed', async () => {
      const { page, errors, close } = await visit(suite.browser, suite.server, { ...VIEWPORTS[1].options, userAgent: UA.instagramAndroid });
      await banner(page).waitFor();
      // Says why, in one line beside its button.
      await banner(page).getByText('Open this site in your browser from the menu or share icon.').waitFor();
      const open = banner(page).getByRole('link', { name: 'Open in browser' });
      const href = (await open.getAttribute('href')) ?? '';
      assert.match(href, /^intent:\/\/127\.0\.0\.1:\d+\/#Intent;scheme=http;/);
      await banner(page).getByRole('button', { name: 'Dismiss' }).click();
      assert.equal(await banner(page).count(), 0);
      // Dismissed for the rest of the visit.
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(300);
      assert.equal(await banner(page).count(), 0);
      assert.deepEqual(errors, []);
      await close();
    });

    test('elsewhere it copies the link and confirms', async () => {
      const { page, errors, close } = await visit(suite.browser, suite.server, {
        ...VIEWPORTS[1].options,
        userAgent: UA.linkedinIos,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await banner(page).waitFor();
      await banner(page).getByRole('button', { name: 'Open in browser' }).click();
      await banner(page).getByText('Link copied').waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), suite.server.url + '/');
      assert.deepEqual(errors, []);
      await close();
    });

    test('appears for the Facebook and Twitter in-app browsers too, at desktop size', async () => {
      for (const userAgent of [UA.facebookIos, UA.twitterIos]) {
        const { page, close } = await visit(suite.browser, suite.server, { viewport: DESKTOP, userAgent });
        await banner(page).waitFor();
        await close();
      }
    });
  });
});
