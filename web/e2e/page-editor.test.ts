/**
 * Browser tests of the dashboard's Page tab: the owner edits the content document, saves the
 * draft, publishes and reverts, against the real server; a second tab's stale save is refused
 * and said so; unsaved edits survive a reload; invalid input is shown beside its field and never
 * saved.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { openPage, PHONE, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, signIn } from './helpers.ts';
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

interface Document {
  profile: { name: string; role: string; summary: string };
  projects: { id: string; title: string; image: string }[];
  media: { id: string; sources: { src: string }[] }[];
}

/** Opens the Page tab (with the keyboard, as the tabs go: Inbox, Insights, Page) and waits for the draft's forms. */
async function openEditor(page: Page) {
  await page.getByRole('tab', { name: 'Inbox' }).press('End');
  await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
  // Focus moved with the selection, as the tabs pattern asks.
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Page');
  await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
  await nameField(page).waitFor();
}

function nameField(page: Page): Locator {
  return page.getByRole('region', { name: 'Profile' }).getByLabel('Name', { exact: true });
}

function projectRegions(page: Page): Locator {
  return page.getByRole('region', { name: /^Project \d+:/ });
}

async function saveDraft(page: Page) {
  await page.getByRole('button', { name: 'Save draft' }).click();
  await page.getByText('Draft saved.').waitFor();
}

/**
 * axe over the editor. The draft's preview is left out: it is the public page in a frame (checked
 * by the landing's own tests), and its header, main and sections would otherwise count as
 * duplicates of the dashboard's landmarks.
 */
function editorViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { exclude: 'iframe' });
}

async function draftOnServer(server: RunningServer): Promise<{ revision: number; document: Document }> {
  const response = await fetch(`${server.url}/api/content/draft`, { headers: { Cookie: await ownerCookie(server) } });
  assert.equal(response.status, 200);
  return (await response.json()) as { revision: number; document: Document };
}

async function published(server: RunningServer): Promise<{ version: number; document: Document }> {
  const response = await fetch(`${server.url}/api/content`);
  assert.equal(response.status, 200);
  return (await response.json()) as { version: number; document: Document };
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft?' });
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('status').filter({ hasText: /^Published version \d+/ }).waitFor();
}

describe('the page editor', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the owner changes the name, adds a project, saves, reloads and publishes; the API serves both', async () => {
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server);
    // Until the server renders the draft's preview (another branch), asking for it is a 404.
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(new URL(response.url()).pathname);
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await signIn(page, suite.server);
    // The inbox never downloads the editor; its tab does, once (Ajv's compiled schema inside).
    assert.deepEqual(
      scripts.filter((path) => path.includes('page-editor')),
      [],
    );
    await openEditor(page);
    assert.equal(scripts.filter((path) => path.includes('page-editor')).length, 1);
    assert.deepEqual(await editorViolations(page), []);

    await nameField(page).fill('Robin Editor');
    const before = await projectRegions(page).count();
    await page.getByRole('button', { name: 'Add a project' }).click();
    assert.equal(await projectRegions(page).count(), before + 1);
    const project = projectRegions(page).last();
    // The new project's first field has the focus, for the keyboard.
    await page.waitForFunction((id) => document.activeElement?.id === id, `field-projects-${before}-title`);
    await page.keyboard.type('Garden Planner');
    await project.getByLabel('Description').fill('Plans a vegetable garden by season.');
    await project.getByLabel('Code address').fill('https://example.com/garden/code');
    await project.getByLabel('Live demo address').fill('https://example.com/garden');
    await project.getByLabel('Stack').selectOption('backend');
    await project.getByLabel('Technologies').fill('Rust, SQLite');
    assert.deepEqual(await editorViolations(page), []);
    await saveDraft(page);

    await page.reload();
    await nameField(page).waitFor();
    assert.equal(await nameField(page).inputValue(), 'Robin Editor');
    assert.equal(await projectRegions(page).last().getByLabel('Title').inputValue(), 'Garden Planner');

    await publish(page);
    const live = await published(suite.server);
    assert.equal(live.document.profile.name, 'Robin Editor');
    const added = live.document.projects.at(-1)!;
    assert.equal(added.title, 'Garden Planner');
    assert.deepEqual((added as unknown as { technologies: string[] }).technologies, ['Rust', 'SQLite']);
    await page.getByRole('cell', { name: String(live.version), exact: true }).waitFor();
    assert.deepEqual(await editorViolations(page), []);
    assert.deepEqual(
      failed.filter((path) => path !== '/api/content/draft/preview'),
      [],
    );
    const notFound = errors.filter((e) => e.includes('status of 404'));
    assert.equal(notFound.length, failed.length, 'each 404 in the console is the preview');
    assert.deepEqual(
      errors.filter((e) => !e.includes('status of 404')),
      [],
    );
    assert.deepEqual(foreignRequests, []);
    await close();
  });

  test('a stale save from a second tab is refused and said so; the newer draft can be loaded', async () => {
    const first = await openPage(suite.browser, suite.server);
    await signIn(first.page, suite.server);
    await openEditor(first.page);
    const second = await first.page.context().newPage();
    await second.goto(suite.server.url + '/dashboard?view=page');
    await nameField(second).waitFor();

    const role = first.page.getByRole('region', { name: 'Profile' }).getByLabel('Role');
    await role.fill('Staff Engineer');
    await saveDraft(first.page);
    const saved = await draftOnServer(suite.server);

    const summary = second.getByRole('region', { name: 'Profile' }).getByLabel('Summary');
    await summary.fill('Written in the stale tab.');
    await second.getByRole('button', { name: 'Save draft' }).click();
    const alert = second.getByRole('alert').filter({ hasText: 'changed elsewhere' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Nothing was overwritten/);
    const after = await draftOnServer(suite.server);
    assert.equal(after.revision, saved.revision, 'the stale save wrote nothing');
    assert.notEqual(after.document.profile.summary, 'Written in the stale tab.');

    await alert.getByRole('button', { name: 'Load the newer draft' }).click();
    await alert.waitFor({ state: 'detached' });
    assert.equal(await second.getByRole('region', { name: 'Profile' }).getByLabel('Role').inputValue(), 'Staff Engineer');
    await first.close();
  });

  test('unsaved changes survive a reload, with a notice, and leaving warns first', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const revision = (await draftOnServer(suite.server)).revision;
    await nameField(page).fill('Not Saved Yet');
    await page.getByText('Unsaved changes', { exact: true }).waitFor();

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    await nameField(page).waitFor();
    assert.deepEqual(dialogs, ['beforeunload']);
    assert.equal(await nameField(page).inputValue(), 'Not Saved Yet');
    await page.getByRole('status').filter({ hasText: 'unsaved changes from before the page was reloaded are restored' }).waitFor();
    assert.equal((await draftOnServer(suite.server)).revision, revision, 'nothing was saved by the reload');

    await page.getByRole('button', { name: 'Discard them' }).click();
    assert.notEqual(await nameField(page).inputValue(), 'Not Saved Yet');
    await close();
  });

  test('unsaved changes made from a draft saved elsewhere since are offered, not forced', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await nameField(page).fill('Edited Before The Other Save');
    await page.getByText('Unsaved changes', { exact: true }).waitFor();

    // Meanwhile the draft is saved elsewhere (here through the API, as another tab would).
    const cookie = await ownerCookie(suite.server);
    const current = await draftOnServer(suite.server);
    current.document.profile.role = 'Saved Elsewhere';
    const put = await fetch(`${suite.server.url}/api/content/draft`, {
      method: 'PUT',
      headers: { Cookie: cookie, 'Content-Type': 'application/json', 'If-Match': `"${current.revision}"`, Origin: suite.server.url },
      body: JSON.stringify(current.document),
    });
    assert.equal(put.status, 200, await put.text());

    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await nameField(page).waitFor();
    const offer = page.getByRole('alert').filter({ hasText: 'saved elsewhere since they were made' });
    await offer.waitFor();
    // The newer draft is what is shown until the owner chooses.
    assert.equal(await page.getByRole('region', { name: 'Profile' }).getByLabel('Role').inputValue(), 'Saved Elsewhere');
    assert.notEqual(await nameField(page).inputValue(), 'Edited Before The Other Save');
    await offer.getByRole('button', { name: 'Restore my unsaved changes' }).click();
    assert.equal(await nameField(page).inputValue(), 'Edited Before The Other Save');
    await page.getByRole('status').filter({ hasText: 'are restored' }).waitFor();
    await close();
  });

  test('invalid input is shown beside its field and is not saved', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const revision = (await draftOnServer(suite.server)).revision;
    await nameField(page).fill('');
    const firstProject = projectRegions(page).first();
    await firstProject.getByLabel('Code address').fill('javascript:alert(1)');
    // A control character (pasted from a terminal, say): the link preview could not be drawn.
    const titleField = firstProject.getByLabel('Title', { exact: true });
    const title = await titleField.inputValue();
    await titleField.fill('Bell\u0007Title');
    await page.getByRole('button', { name: 'Save draft' }).click();

    const summary = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await summary.waitFor();
    assert.match(await summary.innerText(), /profile\.name: must not be empty/);
    assert.equal(await nameField(page).getAttribute('aria-invalid'), 'true');
    const described = (await nameField(page).getAttribute('aria-describedby')) ?? '';
    assert.equal(await page.locator(`#${described.split(' ').at(-1)}`).innerText(), 'Name: must not be empty');
    await firstProject.getByText('Code address: must be an http, https or mailto URL').waitFor();
    assert.equal(await firstProject.getByLabel('Code address').getAttribute('aria-invalid'), 'true');
    await firstProject.getByText('Title: must not contain control characters').waitFor();
    assert.deepEqual(await editorViolations(page), []);
    assert.equal((await draftOnServer(suite.server)).revision, revision, 'nothing was saved');
    // The summary's links take the keyboard to each field.
    await summary.getByRole('link', { name: /^profile\.name/ }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'field-profile-name');

    // Fixed, it saves, and the errors go.
    await nameField(page).fill('Robin Editor');
    await firstProject.getByLabel('Code address').fill('https://example.com/code');
    await titleField.fill(title);
    await saveDraft(page);
    assert.equal(await summary.count(), 0);
    assert.equal((await draftOnServer(suite.server)).document.profile.name, 'Robin Editor');
    await close();
  });

  test('a project moves up with the keyboard, and the saved draft keeps the new order', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const titles = (await draftOnServer(suite.server)).document.projects.map((p) => p.title);
    const second = titles[1]!;
    const move = page.getByRole('button', { name: `Move project ${second} up` });
    await move.focus();
    await page.keyboard.press('Enter');
    assert.equal(await projectRegions(page).first().getByLabel('Title').inputValue(), second);
    // Focus followed the item, so pressing again would move it further (here it is first: Down has it).
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      `Move project ${second} down`,
    );
    await saveDraft(page);
    const order = (await draftOnServer(suite.server)).document.projects.map((p) => p.title);
    assert.deepEqual(order, [second, titles[0], ...titles.slice(2)]);
    await close();
  });

  test('revert publishes an earlier version again, after asking', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await nameField(page).fill('First Published');
    await saveDraft(page);
    await publish(page);
    const first = await published(suite.server);
    await nameField(page).fill('Second Published');
    await publish(page); // saves the edit first
    assert.equal((await published(suite.server)).document.profile.name, 'Second Published');

    await page.getByRole('button', { name: `Revert to version ${first.version}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revert to version ${first.version}?` });
    await dialog.waitFor();
    assert.deepEqual(await editorViolations(page), []);
    await dialog.getByRole('button', { name: 'Revert' }).click();
    await page.getByRole('status').filter({ hasText: `Version ${first.version} is published again` }).waitFor();
    const now = await published(suite.server);
    assert.deepEqual(now.document, first.document);
    assert.ok(now.version > first.version);
    await page.waitForFunction(
      () => (document.getElementById('field-profile-name') as HTMLInputElement | null)?.value === 'First Published',
    );
    await close();
  });

  test('a skill picks its logo from the bundled set, and an award is added to a job', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await page.getByRole('button', { name: 'Add a skill' }).click();
    await page.waitForFunction(() => document.activeElement?.id.startsWith('field-skills-'));
    await page.keyboard.type('Docker-free Rust');
    await page.getByRole('region', { name: /^Skill \d+: Docker-free Rust$/ }).getByLabel('Logo').selectOption({ label: 'Git' });
    const job = page.getByRole('region', { name: /^Experience 1:/ });
    await job.getByRole('button', { name: /^Add an award to / }).click();
    await job.getByRole('region', { name: /^Award \d+: untitled$/ }).getByLabel('Award title').fill('Team Award');
    assert.deepEqual(await editorViolations(page), []);
    await saveDraft(page);
    const draft = (await draftOnServer(suite.server)).document as Document & {
      skills: { name: string; logo: string }[];
      experience: { awards: { title: string; certificate: string }[] }[];
    };
    const added = draft.skills.at(-1)!;
    assert.deepEqual(added, { name: 'Docker-free Rust', logo: 'logo-git' });
    assert.ok(draft.media.some((m) => m.id === 'logo-git'));
    const award = draft.experience[0]!.awards.at(-1)!;
    assert.equal(award.title, 'Team Award');
    assert.ok(draft.media.some((m) => m.id === award.certificate), 'the award points at a certificate image');
    await close();
  });

  test('on a phone nothing overflows sideways and every control is at least 44 px tall', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: PHONE, isMobile: true, hasTouch: true });
    await signIn(page, suite.server);
    await openEditor(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the editor is ${overflow} px wider than the phone`);
    const controls = page.locator('main button, main input:not([type=file]), main select');
    assert.ok((await controls.count()) > 100, 'the controls of every part of the document are there');
    const small = await controls
      .evaluateAll((elements) =>
        elements
          .filter((e) => e.getBoundingClientRect().height > 0 && e.getBoundingClientRect().height < 44)
          .map((e) => e.getAttribute('aria-label') ?? e.textContent ?? e.id),
      );
    assert.deepEqual(small, []);
    assert.deepEqual(await editorViolations(page), []);
    await close();
  });

  test('the preview says so plainly when it cannot be loaded', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    // Whatever the server answers, the editor shows either the frame or the message.
    await openEditor(page);
    const frame = page.locator('iframe[title="Preview of the draft"]');
    const message = page.getByText('The preview could not be loaded.');
    await frame.or(message).first().waitFor();
    const answered = await fetch(`${suite.server.url}/api/content/draft/preview`, {
      headers: { Cookie: await ownerCookie(suite.server) },
    });
    assert.equal(await frame.count(), answered.ok ? 1 : 0);
    assert.equal(await message.count(), answered.ok ? 0 : 1);
    await close();
  });
});

/** The issue's own test: from the editor to a visitor's page, rendered by the server. */
describe('a page published from the editor', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test(
    'an upload that is not an image, or not a PDF for the resume, is refused beside its field',
    async () => {
      const { page, close } = await openPage(suite.browser, suite.server);
      await signIn(page, suite.server);
      await openEditor(page);
      const profile = page.getByRole('region', { name: 'Profile' });
      await profile.getByLabel('Upload a new photo').setInputFiles({
        name: 'photo.png',
        mimeType: 'image/png',
        buffer: Buffer.from('these bytes are not an image'),
      });
      await profile.getByRole('alert').filter({ hasText: 'is not an image the server accepts' }).waitFor();
      await page.getByLabel('Upload a new resume (PDF)').setInputFiles({
        name: 'resume.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('not a PDF at all'),
      });
      await page.getByRole('alert').filter({ hasText: 'That file is not a PDF' }).waitFor();
      assert.deepEqual(await editorViolations(page), []);
      await close();
    },
  );

  test(
    'shows the new name and a project with its uploaded screenshot with JavaScript off, and hydrates without a warning or layout shift',
    async () => {
      const owner = await openPage(suite.browser, suite.server);
      await signIn(owner.page, suite.server);
      await openEditor(owner.page);
      await nameField(owner.page).fill('Robin Published');
      await owner.page.getByRole('button', { name: 'Add a project' }).click();
      const project = projectRegions(owner.page).last();
      await project.getByLabel('Title').fill('Screenshot Project');
      await project.getByLabel('Description').fill('A project with an uploaded screenshot.');
      await project.getByLabel('Code address').fill('https://example.com/shot/code');
      await project.getByLabel('Live demo address').fill('https://example.com/shot');
      const pixels = new Uint8Array(800 * 500 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256));
      await project.getByLabel('Upload a new screenshot').setInputFiles({
        name: 'shot.png',
        mimeType: 'image/png',
        buffer: Buffer.from(encodePng(pixels, 800, 500) as Uint8Array),
      });
      await project.getByLabel('Alt text of the screenshot').fill('The screenshot project');
      await publish(owner.page);
      const live = await published(suite.server);
      const image = live.document.media.find((m) => m.id === live.document.projects.at(-1)!.image)!;
      assert.match(image.sources[0]!.src, /^\/media\//);
      await owner.close();

      // With JavaScript off the server's page carries both.
      const noScript = await suite.browser.newContext({ javaScriptEnabled: false });
      const still = await noScript.newPage();
      await still.goto(suite.server.url + '/');
      await still.getByRole('heading', { level: 1, name: /Robin Published/ }).waitFor();
      await still.getByRole('img', { name: 'The screenshot project' }).waitFor();
      await noScript.close();

      // With JavaScript it hydrates without a warning and without moving anything.
      const visitor = await openPage(suite.browser, suite.server);
      const warnings: string[] = [];
      visitor.page.on('console', (m) => {
        if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
      });
      await visitor.page.goto(suite.server.url + '/');
      await hydrated(visitor.page);
      const shift = await visitor.page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) total += (entry as unknown as { value: number }).value;
            }).observe({ type: 'layout-shift', buffered: true });
            setTimeout(() => resolve(total), 500);
          }),
      );
      assert.equal(shift, 0);
      assert.deepEqual(warnings, []);
      assert.deepEqual(visitor.errors, []);
      await visitor.close();
    },
  );
});
