/**
 * The landing page `/` in a real browser at a desktop and a phone viewport: navigation,
 * hero and typewriter, section content, and page-wide checks (overflow, requests to other
 * hosts, console errors, images, accessibility).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { profile } from '../src/content/owner.ts';
import { serverAndBrowser } from './harness.ts';
import { VIEWPORTS, scrollThrough, visit, waitUntilScrolledTo } from './page-support.ts';
import { axeViolations } from './helpers.ts';

const NAV = ['Home', 'About', 'Skills', 'Projects', 'Experience', 'Contact'];
const PHRASES = profile.typewriterPhrases;

/** The hero's animations (the caret's blink, the availability dot's ping), each with its state. */
const heroMotion = (page: Page) =>
  page.evaluate(() =>
    document
      .querySelector('#home')!
      .getAnimations({ subtree: true })
      .map((animation) => `${(animation as CSSAnimation).animationName} ${animation.playState}`)
      .sort(),
  );

describe('the portfolio page', () => {
  const suite = serverAndBrowser();

  /** The `aria-current` items of the main navigation, by name. */
  const currentItems = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Main' })
      .locator('[aria-current]')
      .evaluateAll((links) => links.map((link) => link.textContent?.trim()));

  test('the sections come in order with their anchors', async () => {
    const { page, close } = await visit(suite.browser, suite.server, VIEWPORTS[0].options);
    const ids = await page.locator('main > section[id]').evaluateAll((sections) => sections.map((s) => s.id));
    assert.deepEqual(ids, ['home', 'about', 'skills', 'projects', 'experience', 'contact']);
    assert.equal(await page.locator('footer').count(), 1);
    await close();
  });

  test('desktop: one current navigation item, starting on Home; a click moves it and scrolls', async () => {
    const { page, errors, close } = await visit(suite.browser, suite.server, VIEWPORTS[0].options);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const names = await nav.getByRole('list').first().getByRole('link').allTextContents();
    assert.deepEqual(names.map((n) => n.trim()), NAV);
    assert.deepEqual(await currentItems(page), ['Home']);
    assert.equal(await page.getByRole('button', { name: /menu/i }).isVisible(), false, 'no menu button on desktop');

    for (const [name, id] of [
      ['Projects', 'projects'],
      ['About', 'about'],
      ['Contact', 'contact'],
      ['Experience', 'experience'],
    ] as const) {
      await nav.getByRole('link', { name, exact: true }).click();
      // React draws the click's state in its next render, which may follow the click's return.
      await nav.locator('[aria-current]').filter({ hasText: name }).waitFor();
      assert.deepEqual(await currentItems(page), [name]);
      await waitUntilScrolledTo(page, id);
      assert.equal(new URL(page.url()).hash, `#${id}`);
    }

    const resume = nav.getByRole('link', { name: 'Download Resume' });
    assert.ok(await resume.isVisible());
    assert.equal(await resume.getAttribute('href'), profile.resume);
    assert.deepEqual(errors, []);
    await close();
  });

  test('phone: the menu button opens and closes the menu; choosing an item closes it and scrolls', async () => {
    const { page, errors, close } = await visit(suite.browser, suite.server, VIEWPORTS[1].options);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const button = page.getByRole('button', { name: /menu/i });
    const skills = nav.getByRole('link', { name: 'Skills', exact: true });

    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await skills.isVisible(), false, 'items are hidden in the closed menu');
    assert.ok((await button.boundingBox())!.height >= 44);

    await button.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    for (const name of NAV) assert.ok(await nav.getByRole('link', { name, exact: true }).isVisible(), name);
    const resume = nav.getByRole('link', { name: 'Download Resume' });
    assert.ok(await resume.isVisible(), 'Download Resume is in the mobile menu');
    assert.equal(await resume.getAttribute('href'), profile.resume);

    // The same button closes it.
    await button.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await skills.isVisible(), false);

    // Choosing an item closes the menu, makes the item current and scrolls to it.
    await button.click();
    await skills.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await skills.isVisible(), false);
    assert.deepEqual(await currentItems(page), ['Skills']);
    await waitUntilScrolledTo(page, 'skills');

    // Escape closes it too.
    await button.click();
    await page.keyboard.press('Escape');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(errors, []);
    await close();
  });

  test('the first Tab reaches a visible skip link that moves focus to the main content', async () => {
    const { page, close } = await visit(suite.browser, suite.server, VIEWPORTS[0].options);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true);
    assert.ok((await skip.boundingBox())!.width > 40, 'visible when focused');
    const outline = await skip.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'main');
    await close();
  });

  test('the navigation collapses into the menu below 900 px', async () => {
    for (const [width, collapsed] of [
      [900, false],
      [899, true],
    ] as const) {
      const { page, close } = await visit(suite.browser, suite.server, { viewport: { width, height: 800 } });
      const button = page.getByRole('button', { name: /menu/i });
      const about = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true });
      assert.equal(await button.isVisible(), collapsed, `menu button at ${width} px`);
      assert.equal(await about.isVisible(), !collapsed, `inline items at ${width} px`);
      const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
      assert.ok(nav.height <= 64, `the bar stays one line at ${width} px`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width);
      await close();
    }
  });

  test('the availability dot pings three times and then stays still; the caret blinks only while a phrase is held', async () => {
    const { page, close } = await visit(suite.browser, suite.server, VIEWPORTS[0].options);
    const ping = await page
      .locator('#home .status-ping')
      .evaluate((dot) => dot.getAnimations().map((animation) => [(animation as CSSAnimation).animationName, animation.effect!.getComputedTiming().iterations]));
    assert.deepEqual(ping, [['ping', 3]]);
    // While characters come and go the caret is steady; held, the phrase's caret blinks. Each
    // read is of one moment: the text and the animations together.
    const moment = (wanted: { text: string } | { shorterThan: number }) =>
      page
        .waitForFunction(
          (wanted) => {
            const typed = document.querySelector('[data-testid="typewriter"]')!;
            const text = typed.textContent ?? '';
            const now = 'text' in wanted ? text === wanted.text : text.length > 2 && text.length < wanted.shorterThan;
            return now && typed.getAnimations().map((animation) => `${(animation as CSSAnimation).animationName} ${animation.playState}`);
          },
          wanted,
          { polling: 'raf', timeout: 30_000 },
        )
        .then((handle) => handle.jsonValue() as Promise<string[]>);
    assert.deepEqual(await moment({ shorterThan: 10 }), [], 'steady while typing');
    assert.deepEqual(await moment({ text: PHRASES[0]! }), ['caret-blink running'], 'blinks while the phrase is held');
    assert.deepEqual(await moment({ shorterThan: 10 }), [], 'steady while erasing');
    // The dot's pulses end within 4.8 s of the hero's time on the screen; then nothing on the
    // first screen moves but the typing and, while a phrase is held, its caret.
    await page.waitForFunction(() => document.querySelector('#home .status-ping')!.getAnimations().length === 0, null, { timeout: 30_000 });
    const still = await heroMotion(page);
    assert.ok(still.every((animation) => animation === 'caret-blink running'), `only the caret moves: ${still.join(', ')}`);
    await close();
  });

  test('the resume is a real PDF served by our server', async () => {
    const response = await fetch(suite.server.url + profile.resume);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/pdf/);
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(body.subarray(0, 5).toString(), '%PDF-');
    assert.ok(body.length > 5_000);
  });

  for (const { name, options } of VIEWPORTS) {
    describe(`at the ${name} viewport`, () => {
      test('the hero shows the badge, greeting, intro, links and photo', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const hero = page.locator('#home');
        await hero.getByText('Available for new projects').waitFor();
        assert.equal((await page.getByRole('heading', { level: 1 }).textContent())?.trim(), `Hi, I'm ${profile.name}`);
        const intro = (await hero.locator('p.lead').textContent()) ?? '';
        for (const word of ['MERN', 'Tailwind', 'JavaScript']) assert.ok(intro.includes(word), word);
        assert.equal(await hero.getByRole('link', { name: 'View My Work' }).getAttribute('href'), '#projects');
        assert.equal(await hero.getByRole('link', { name: 'Contact', exact: true }).getAttribute('href'), '#contact');
        assert.equal(await hero.getByRole('link', { name: `${profile.name} on GitHub` }).getAttribute('href'), profile.links.github);
        assert.equal(
          await hero.getByRole('link', { name: `${profile.name} on LinkedIn` }).getAttribute('href'),
          profile.links.linkedin,
        );
        const photo = hero.getByRole('img', { name: /portrait/i });
        assert.equal(await photo.getAttribute('loading'), null, 'the hero photo loads eagerly');
        assert.ok(await photo.getAttribute('srcset'));
        assert.ok(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
        const radius = await photo.evaluate((img) => getComputedStyle(img).borderTopLeftRadius);
        assert.match(radius, /%/, 'the photo is cut into a blob');
        await close();
      });

      test('the typewriter types, pauses, erases and moves to the next phrase', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const typed = page.getByTestId('typewriter');
        assert.equal(await typed.getAttribute('aria-hidden'), 'true', 'screen readers do not hear every keystroke');
        assert.equal(
          (await page.locator('#home .sr-only').first().textContent())?.trim(),
          PHRASES.join(', '),
          'screen readers get the phrases once',
        );
        const shows = (text: string, timeout: number) =>
          page.waitForFunction(
            (expected) => document.querySelector('[data-testid="typewriter"]')?.textContent === expected,
            text,
            { timeout, polling: 20 },
          );
        // Timed from the first character, not from the visit: the page may hydrate (and start
        // typing) before the test gets here.
        // How many characters were typed when the test first saw some: a loaded machine may look
        // late, and the rest is what is timed.
        const seen = (await (
          await page.waitForFunction(
            () => (document.querySelector('[data-testid="typewriter"]')?.textContent ?? '').length || false,
            null,
            { timeout: 10_000, polling: 20 },
          )
        ).jsonValue()) as number;
        const start = Date.now();
        await shows(PHRASES[0]!, 10_000);
        // The rest at 100 ms a character (the first phrase's other 18: about 1.8 seconds); never
        // faster than that, however late the test looked.
        const typing = Date.now() - start;
        const rest = PHRASES[0]!.length - seen;
        assert.ok(typing > (rest - 1) * 70 && typing < 8_000, `typed the last ${rest} characters of the first phrase in ${typing} ms`);
        // It holds the phrase for a second before erasing.
        await page.waitForTimeout(600);
        assert.equal(await typed.textContent(), PHRASES[0]);
        await shows('', 4_000);
        await shows(PHRASES[1]!, 4_000);
        if (name === 'desktop') await shows(PHRASES[2]!, 8_000);
        await close();
      });

      test('the typewriter starts only once it is scrolled into view, and the hero\'s motion rests while it is away', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options, '/#contact');
        const typed = page.getByTestId('typewriter');
        const allPaused = async () => {
          const motion = await heroMotion(page);
          assert.ok(motion.every((animation) => animation.endsWith(' paused')), `the hero's motion rests: ${motion.join(', ')}`);
        };
        await page.waitForFunction(() => window.scrollY > 1000);
        await page.locator('#home[data-resting]').waitFor({ state: 'attached' });
        await page.waitForTimeout(800);
        assert.equal(await typed.textContent(), '', 'nothing typed out of view');
        // The dot's three pulses wait for the hero too (unless a loaded machine played them all
        // before the page was hydrated).
        await allPaused();
        await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
        await page.waitForFunction(() => (document.querySelector('[data-testid="typewriter"]')?.textContent ?? '').length > 2);
        const moving = await heroMotion(page);
        assert.ok(moving.every((animation) => animation.endsWith(' running')), `the hero moves again: ${moving.join(', ')}`);
        // Scrolled away again, it rests where it was: a visitor reading further down spends
        // nothing on what they cannot see.
        await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
        await page.locator('#home[data-resting]').waitFor({ state: 'attached' });
        // A step already due when the hero left may still land (React clears the timer after it
        // draws the attribute, a loaded machine later than that): after it, nothing moves.
        await page.waitForTimeout(1_500);
        const rested = await typed.textContent();
        await page.waitForTimeout(1_500);
        assert.equal(await typed.textContent(), rested, 'nothing typed while the hero is off the screen');
        await allPaused();
        // Back on the screen, it goes on from there.
        await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
        await page.waitForFunction((before) => document.querySelector('[data-testid="typewriter"]')?.textContent !== before, rested, {
          timeout: 30_000,
        });
        await close();
      });

      test('with reduced motion the phrases are shown still', async () => {
        const { page, close } = await visit(suite.browser, suite.server, { ...options, reducedMotion: 'reduce' });
        const still = page.getByTestId('typewriter-static');
        await still.waitFor();
        assert.equal(await still.textContent(), PHRASES.join(' · '));
        await page.waitForTimeout(500);
        assert.equal(await still.textContent(), PHRASES.join(' · '));
        assert.equal(await page.getByTestId('typewriter').isVisible(), false, 'the animated line is hidden');
        assert.equal(await page.getByTestId('typewriter').textContent(), '', 'and nothing types');
        await close();
      });

      test('about, skills and experience show their content', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const about = page.locator('#about');
        assert.ok(await about.getByRole('heading', { name: 'About Me' }).isVisible());
        await about.getByText('Full Stack Developer').waitFor();
        const paragraphs = await about.locator('p.lead').allTextContents();
        assert.equal(paragraphs.length, 2);
        assert.ok(paragraphs.join(' ').includes('more than 3 years'));
        await about.getByText(profile.name, { exact: true }).waitFor();
        await about.getByText(profile.email, { exact: true }).waitFor();
        assert.equal(await about.getByRole('link', { name: 'Download Resume' }).getAttribute('href'), profile.resume);

        const skills = page.locator('#skills');
        assert.ok(await skills.getByRole('heading', { name: 'Skills' }).isVisible());
        const cards = skills.locator('li');
        const expected = ['HTML5', 'CSS3', 'Bootstrap', 'JavaScript', 'React', 'Tailwind CSS', 'Material UI', 'Vite', 'Firebase', 'Git', 'Vercel', 'Node.js', 'Express', 'AEM'];
        assert.deepEqual((await cards.allTextContents()).map((t) => t.trim()), expected);
        const logos = await skills.locator('li img:not(.only-light)').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''));
        assert.equal(logos.length, 14);
        assert.ok(logos.every((src) => /^\/assets\/.+\.svg$/.test(src)), logos.join(' '));
        // Two logos that would vanish on the light scheme's white cards have a variant for it, hidden in the dark.
        const variants = skills.locator('li img.only-light');
        assert.deepEqual(
          (await variants.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''))).map((src) => src.replace(/-[\w-]{8}\.svg$/, '')),
          ['/assets/vercel-on-light', '/assets/express-on-light'],
        );
        assert.deepEqual(await variants.evaluateAll((imgs) => imgs.map((img) => getComputedStyle(img).display)), ['none', 'none']);

        const experience = page.locator('#experience');
        const work = experience.locator('div', { has: page.getByRole('heading', { name: 'Work Experience' }) }).last();
        const education = experience.locator('div', { has: page.getByRole('heading', { name: 'Education', exact: true }) }).last();
        assert.deepEqual(await work.locator('h4').allTextContents(), ['Analyst', 'Programmer Analyst']);
        assert.deepEqual(await education.locator('h4').allTextContents(), [
          'B.Tech in Electronics & Communication Engineering',
          '12th M.P.C',
        ]);
        for (const date of ['2023 - Present', '2021 - 2023', '2017 - 2021', '2015 - 2017']) {
          await experience.getByText(date, { exact: true }).waitFor();
        }
        // Side by side from 900 px, stacked below.
        const [a, b] = [await work.boundingBox(), await education.boundingBox()];
        if (name === 'desktop') assert.ok(Math.abs(a!.y - b!.y) < 2 && b!.x > a!.x + a!.width - 1, 'side by side');
        else assert.ok(b!.y >= a!.y + a!.height - 1, 'stacked');
        await close();
      });

      test('nothing overflows sideways, nothing is requested from another host, no errors', async () => {
        const { page, errors, foreignRequests, close } = await visit(suite.browser, suite.server, options);
        await scrollThrough(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= options.viewport.width, `page is ${width} px wide`);
        assert.deepEqual(foreignRequests, []);
        assert.deepEqual(errors, []);
        await close();
      });

      test('images have their size set; only the hero photo loads eagerly', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const images = await page.locator('img').evaluateAll((imgs) =>
          imgs.map((img) => ({
            src: img.getAttribute('src'),
            width: img.getAttribute('width'),
            height: img.getAttribute('height'),
            loading: img.getAttribute('loading'),
            inHero: Boolean(img.closest('#home')),
          })),
        );
        assert.ok(images.length >= 14 + 4 + 1);
        for (const image of images) {
          assert.ok(image.width && image.height, `${image.src} has width and height`);
          if (image.inHero) assert.notEqual(image.loading, 'lazy', `${image.src} is eager`);
          else assert.equal(image.loading, 'lazy', `${image.src} is lazy`);
        }
        assert.equal(images.filter((i) => i.inHero).length, 1);
        await close();
      });

      test('buttons and icon links are at least 44 px tall', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        const small = await page.locator('main .btn, main .icon-btn, footer .icon-btn').evaluateAll((els) =>
          els
            .filter((el) => el.getClientRects().length > 0)
            .map((el) => ({ text: el.textContent?.trim() || el.getAttribute('aria-label'), h: el.getBoundingClientRect().height }))
            .filter((el) => el.h < 44),
        );
        assert.deepEqual(small, []);
        await close();
      });

      test('axe finds no accessibility violations', async () => {
        const { page, close } = await visit(suite.browser, suite.server, options);
        await scrollThrough(page);
        assert.deepEqual(await axeViolations(page), []);
        await close();
      });
    });
  }
});
