/**
 * Browser tests of the dashboard's Page tab: the owner moves between the document's parts (each
 * at its own address), edits, and the draft saves itself; lists are reordered by drag and drop or
 * the keyboard; two tabs merge or ask and lose nothing; invalid input is shown beside its field
 * and never saved; the draft publishes and reverts; all against the real server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, errorsOf, openPage, PHONE, serverAndBrowser, type RunningServer } from './harness.ts';
import { hydrated } from './page-support.ts';
import { axeViolations, OWNER_ENV, ownerCookie, signIn } from './helpers.ts';
// @ts-expect-error: a plain Node script without types
import { encodePng } from '../scripts/png.mjs';

interface Document {
  profile: { name: string; role: string; summary: string };
  projects: { id: string; title: string; image: string }[];
  media: { id: string; sources: { src: string }[] }[];
}

/** The parts in the editor's list, by their link's name, and their ids in the address. */
const PARTS = [
  ['Profile', 'profile'],
  ['Typewriter phrases', 'phrases'],
  ['About', 'about'],
  ['Contact', 'contact'],
  ['Social links', 'links'],
  ['Skills', 'skills'],
  ['Projects', 'projects'],
  ['Experience', 'experience'],
  ['Education', 'education'],
  ['Resume', 'resume'],
  ['Languages', 'languages'],
  ['Appearance', 'appearance'],
  ['Versions', 'versions'],
] as const;

/** Opens the Page tab (with the keyboard, as the tabs go: Inbox, Applications, Insights, Writing, Page) and waits for the draft's forms. */
async function openEditor(page: Page) {
  await page.getByRole('tab', { name: 'Inbox' }).press('End');
  await page.getByRole('tab', { name: 'Page', selected: true }).waitFor();
  // Focus moved with the selection, as the tabs pattern asks.
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Page');
  await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
  await nameField(page).waitFor();
}

function partsList(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Parts of the page' });
}

/** Follows a part's link in the list and waits for its heading; says what the page shows if it cannot. */
async function openPart(page: Page, name: string) {
  try {
    await partsList(page).getByRole('link', { name: new RegExp(`^${name}`) }).click({ timeout: 10_000 });
    await page.getByRole('heading', { level: 2, name }).waitFor({ timeout: 10_000 });
  } catch (cause) {
    const shown = await page.locator('body').innerText().catch(() => '(no body)');
    const errors = errorsOf(page).join('\n') || '(none)';
    throw new Error(`could not open the part ${name} at ${page.url()}; the page shows: ${shown.slice(0, 600)}\nits errors: ${errors}`, {
      cause,
    });
  }
}

function nameField(page: Page): Locator {
  return page.getByRole('region', { name: 'Profile' }).getByLabel('Name', { exact: true });
}

function projectRegions(page: Page): Locator {
  return page.getByRole('region', { name: /^Project \d+:/ });
}

/** Opens a folded item of a list by its title. */
async function openItem(page: Page, title: RegExp): Promise<Locator> {
  const region = page.getByRole('region', { name: title });
  const toggle = region.getByRole('button', { name: title });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  return region;
}

/** Waits for the save status to say everything is saved (nobody presses anything). */
async function allSaved(page: Page) {
  await page.getByRole('status').filter({ hasText: /^All changes saved/ }).waitFor({ timeout: 10_000 });
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

/** Polls the server's draft until `check` holds (an autosave is on its way). */
async function draftWhere(server: RunningServer, check: (d: Document) => boolean): Promise<Document> {
  const until = Date.now() + 10_000;
  for (;;) {
    const { document } = await draftOnServer(server);
    if (check(document)) return document;
    if (Date.now() > until) assert.fail(`the draft never matched: ${JSON.stringify(document.profile)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
  // Its status, or the failure said instead (named in the test's failure).
  const said = page.getByRole('status').filter({ hasText: /^Published version \d+/ }).or(page.getByRole('alert')).first();
  await said.waitFor();
  assert.match((await said.textContent()) ?? '', /^Published version \d+/);
}

async function publishedTitles(page: Page, server: RunningServer): Promise<string[]> {
  await allSaved(page);
  await publish(page);
  return (await published(server)).document.projects.map((p) => p.title);
}

describe('the page editor', () => {
  const suite = serverAndBrowser({ env: OWNER_ENV });

  test('the owner changes the name and adds a project; both save themselves, survive a reload, and publish', async () => {
    const { page, errors, foreignRequests, close } = await openPage(suite.browser, suite.server);
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(new URL(response.url()).pathname);
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await signIn(page, suite.server);
    // The inbox never downloads the editor; its tab does, once (Ajv's compiled schema and dnd-kit inside).
    assert.deepEqual(
      scripts.filter((path) => path.includes('page-editor')),
      [],
    );
    await openEditor(page);
    assert.equal(scripts.filter((path) => path.includes('page-editor')).length, 1);
    assert.deepEqual(await editorViolations(page), []);

    await nameField(page).fill('Robin Editor');
    await page.getByRole('status').filter({ hasText: /^(Unsaved changes|Saving…)$/ }).waitFor();
    await allSaved(page);
    assert.equal((await draftOnServer(suite.server)).document.profile.name, 'Robin Editor');

    await openPart(page, 'Projects');
    await page.waitForURL(/[?&]part=projects\b/);
    const before = await projectRegions(page).count();
    await page.getByRole('button', { name: 'Add a project' }).click();
    assert.equal(await projectRegions(page).count(), before + 1);
    const project = projectRegions(page).last();
    // The new project is open, its first field focused, for the keyboard.
    await page.waitForFunction((id) => document.activeElement?.id === id, `field-projects-${before}-title`);
    await page.keyboard.type('Garden Planner');
    await project.getByLabel('Description').fill('Plans a vegetable garden by season.');
    await project.getByLabel('Code address').fill('https://example.com/garden/code');
    await project.getByLabel('Live demo address').fill('https://example.com/garden');
    await project.getByLabel('Stack').selectOption('backend');
    await project.getByLabel('Technologies').fill('Rust, SQLite');
    assert.deepEqual(await editorViolations(page), []);
    await allSaved(page);

    // A reload opens the same part, with everything saved.
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Projects' }).waitFor();
    // Its row shows its title and is read as the project it is.
    const saved = page.getByRole('region', { name: `Project ${before + 1}: Garden Planner` });
    assert.equal((await saved.getByRole('button').nth(1).innerText()).replace(/\s+/g, ' '), `Project ${before + 1}: Garden Planner`);
    assert.equal(await saved.getByRole('button').nth(1).locator('.sr-only').innerText(), `Project ${before + 1}:`);
    await saved.getByRole('button', { name: 'Remove the project Garden Planner' }).waitFor();

    await publish(page);
    const live = await published(suite.server);
    assert.equal(live.document.profile.name, 'Robin Editor');
    const added = live.document.projects.at(-1)!;
    assert.equal(added.title, 'Garden Planner');
    assert.deepEqual((added as unknown as { technologies: string[] }).technologies, ['Rust', 'SQLite']);
    await openPart(page, 'Versions');
    await page.getByRole('cell', { name: String(live.version), exact: true }).waitFor();
    assert.deepEqual(await editorViolations(page), []);
    assert.deepEqual(failed, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(foreignRequests, []);
    await close();
  });

  test('each part opens from the list and from its address, and the editor is never taller than two screens', async () => {
    const { page, close } = await openPage(suite.browser, suite.server, { viewport: DESKTOP });
    await signIn(page, suite.server);
    await openEditor(page);
    // Moving between parts does not ask the server for the session again (the dashboard asked
    // when it opened; a 401 from any request is what signs the page out).
    const sessionChecks: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/session') sessionChecks.push(r.url());
    });
    const heights: string[] = [];
    const tooTall = async (where: string) => {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      heights.push(`${where} ${height}`);
      assert.ok(height <= 2 * DESKTOP.height, `${where} is ${height} px tall, more than two screens (${2 * DESKTOP.height})`);
    };
    for (const [label, id] of PARTS) {
      // From the list: the address names the part, the link is marked current, focus is on the part.
      await openPart(page, label);
      await page.waitForURL(new RegExp(`[?&]part=${id}\\b`));
      assert.equal(await partsList(page).locator('[aria-current="page"]').innerText(), label);
      await page.waitForFunction(() => document.activeElement?.tagName === 'H2');
      await tooTall(label);
      // Each list part with its first item open too.
      const firstItem = page.locator('#editor-part [aria-expanded="false"]').first();
      if ((await firstItem.count()) > 0) {
        await firstItem.click();
        await tooTall(`${label} with an item open`);
      }
      assert.deepEqual(await editorViolations(page), [], label);
    }
    console.log(`the editor's height at ${DESKTOP.width}x${DESKTOP.height}, in px: ${heights.join(', ')}`);
    assert.deepEqual(sessionChecks, [], 'moving between parts asked for the session');
    // From the address: a shared link or a reload opens the part.
    for (const [label, id] of PARTS) {
      await page.goto(`${suite.server.url}/dashboard?view=page&part=${id}`);
      await page.getByRole('heading', { level: 2, name: label }).waitFor();
      assert.equal(await partsList(page).locator('[aria-current="page"]').innerText(), label);
    }
    await close();
  });

  test('a change saves itself: a second browser that opens the editor sees it, though nobody pressed Save', async () => {
    const first = await openPage(suite.browser, suite.server);
    await signIn(first.page, suite.server);
    await openEditor(first.page);
    await first.page.getByRole('region', { name: 'Profile' }).getByLabel('Role').fill('Seen Elsewhere Engineer');
    await allSaved(first.page);

    const second = await openPage(suite.browser, suite.server);
    await signIn(second.page, suite.server);
    await openEditor(second.page);
    assert.equal(await second.page.getByRole('region', { name: 'Profile' }).getByLabel('Role').inputValue(), 'Seen Elsewhere Engineer');
    await second.close();
    await first.close();
  });

  test('two tabs editing at once: changes to different fields merge, the same field asks, and nothing is lost', async () => {
    const first = await openPage(suite.browser, suite.server);
    await signIn(first.page, suite.server);
    await openEditor(first.page);
    const second = await first.page.context().newPage();
    await second.goto(suite.server.url + '/dashboard?view=page');
    await nameField(second).waitFor();
    const profile = (page: Page) => page.getByRole('region', { name: 'Profile' });

    // Different fields: the second tab's save meets the first's, merges and saves both.
    await profile(first.page).getByLabel('Role').fill('Role From Tab One');
    await allSaved(first.page);
    await profile(second).getByLabel('Summary').fill('Summary from tab two.');
    await second.getByRole('status').filter({ hasText: 'with the changes made elsewhere merged in' }).waitFor();
    let draft = await draftOnServer(suite.server);
    assert.equal(draft.document.profile.role, 'Role From Tab One');
    assert.equal(draft.document.profile.summary, 'Summary from tab two.');
    assert.equal(await profile(second).getByLabel('Role').inputValue(), 'Role From Tab One');

    // The same field: the second tab asks, and overwrites nothing until told.
    await nameField(first.page).fill('Name From Tab One');
    await draftWhere(suite.server, (d) => d.profile.name === 'Name From Tab One');
    await allSaved(first.page);
    await nameField(second).fill('Name From Tab Two');
    const alert = second.getByRole('alert').filter({ hasText: 'changed elsewhere too' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Nothing was overwritten\. Both changed profile\.name\./);
    assert.deepEqual(await editorViolations(second), []);
    draft = await draftOnServer(suite.server);
    assert.equal(draft.document.profile.name, 'Name From Tab One', 'the conflicting save wrote nothing');
    await alert.getByRole('button', { name: 'Keep mine' }).click();
    await allSaved(second);
    draft = await draftOnServer(suite.server);
    assert.equal(draft.document.profile.name, 'Name From Tab Two');
    assert.equal(draft.document.profile.role, 'Role From Tab One');
    assert.equal(draft.document.profile.summary, 'Summary from tab two.');
    await first.close();
  });

  test('changes not yet saved when the page is reloaded come back, and are saved once the owner says so', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const revision = (await draftOnServer(suite.server)).revision;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    // Reloaded before the second after the edit that saves it.
    await nameField(page).fill('Not Saved Yet');
    await page.reload();
    await nameField(page).waitFor();
    assert.deepEqual(dialogs, ['beforeunload']);
    assert.equal(await nameField(page).inputValue(), 'Not Saved Yet');
    const notice = page.getByRole('alert').filter({ hasText: 'had not been saved' });
    await notice.waitFor();
    assert.equal((await draftOnServer(suite.server)).revision, revision, 'nothing was saved by the reload');
    await notice.getByRole('button', { name: 'Keep and save them' }).click();
    await draftWhere(suite.server, (d) => d.profile.name === 'Not Saved Yet');
    await close();
  });

  test('unsaved changes made from a draft saved elsewhere since are offered, not forced', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
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
    await nameField(page).fill('Edited Before The Other Save');
    await page.reload();
    await nameField(page).waitFor();
    const offer = page.getByRole('alert').filter({ hasText: 'saved elsewhere since they were made' });
    await offer.waitFor();
    // The newer draft is what is shown until the owner chooses.
    assert.equal(await page.getByRole('region', { name: 'Profile' }).getByLabel('Role').inputValue(), 'Saved Elsewhere');
    assert.notEqual(await nameField(page).inputValue(), 'Edited Before The Other Save');
    await offer.getByRole('button', { name: 'Restore my unsaved changes' }).click();
    assert.equal(await nameField(page).inputValue(), 'Edited Before The Other Save');
    await draftWhere(suite.server, (d) => d.profile.name === 'Edited Before The Other Save');
    await close();
  });

  test('invalid input is shown beside its field and counted in the list, and is not saved', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const revision = (await draftOnServer(suite.server)).revision;
    await nameField(page).fill('');
    await openPart(page, 'Projects');
    const firstProject = await openItem(page, /^Project 1:/);
    await firstProject.getByLabel('Code address').fill('javascript:alert(1)');
    // A control character (pasted from a terminal, say): the link preview could not be drawn.
    const titleField = firstProject.getByLabel('Title', { exact: true });
    const title = await titleField.inputValue();
    await titleField.fill('Bell\u0007Title');

    await page.getByRole('status').filter({ hasText: 'Not saved: 3 fields need attention' }).waitFor();
    await firstProject.getByText('Code address must be an http, https or mailto URL.').waitFor();
    assert.equal(await firstProject.getByLabel('Code address').getAttribute('aria-invalid'), 'true');
    await firstProject.getByText('Title must not contain control characters.').waitFor();
    assert.equal(await partsList(page).getByRole('link', { name: 'Projects, 2 problems' }).count(), 1);
    assert.equal(await partsList(page).getByRole('link', { name: 'Profile, 1 problem' }).count(), 1);
    assert.deepEqual(await editorViolations(page), []);
    assert.equal((await draftOnServer(suite.server)).revision, revision, 'nothing was saved');

    // The summary's links name each field's place in a few words, open its part and focus it.
    await page.getByRole('link', { name: 'Projects, item 1: code url', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Profile: name', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Profile' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'field-profile-name');
    assert.equal(await nameField(page).getAttribute('aria-invalid'), 'true');
    const described = (await nameField(page).getAttribute('aria-describedby')) ?? '';
    assert.equal(await page.locator(`#${described.split(' ').at(-1)}`).innerText(), 'Name must not be empty.');

    // Fixed, it saves itself, and the errors go.
    await nameField(page).fill('Robin Editor');
    await openPart(page, 'Projects');
    const fixed = await openItem(page, /^Project 1:/);
    await fixed.getByLabel('Code address').fill('https://example.com/code');
    await fixed.getByLabel('Title', { exact: true }).fill(title);
    await allSaved(page);
    assert.equal(await partsList(page).getByRole('link', { name: /problem/ }).count(), 0);
    assert.equal((await draftOnServer(suite.server)).document.profile.name, 'Robin Editor');
    await close();
  });

  test('dragging a project by its handle changes the published order', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await openPart(page, 'Projects');
    const titles = (await draftOnServer(suite.server)).document.projects.map((p) => p.title);
    const handle = (title: string) => page.getByRole('button', { name: `Reorder project ${title}` });
    const from = (await handle(titles[2]!).boundingBox())!;
    const to = (await handle(titles[0]!).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 4, { steps: 2 });
    await page.mouse.up();
    // The list shows the new order first (the drop is drawn), then it is saved.
    await projectRegions(page).first().getByRole('button', { name: `Project 1: ${titles[2]}` }).waitFor();
    const expected = [titles[2], titles[0], titles[1], ...titles.slice(3)];
    assert.deepEqual(await publishedTitles(page, suite.server), expected);
    await close();
  });

  test('the keyboard lifts, moves and drops a project, each step announced, and the published order follows', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await openPart(page, 'Projects');
    const titles = (await draftOnServer(suite.server)).document.projects.map((p) => p.title);
    const count = titles.length;
    const moved = titles[0]!;
    const handle = page.getByRole('button', { name: `Reorder project ${moved}` });
    // Its instructions are read with it.
    const describedBy = (await handle.getAttribute('aria-describedby'))!;
    assert.match(await page.locator(`[id="${describedBy}"]`).innerText(), /press Space or Enter to pick the item up/);
    // Every announcement, as a screen reader hears them one after another.
    await page.evaluate(() => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      new MutationObserver(() => {
        for (const region of document.querySelectorAll('[aria-live="assertive"]')) {
          const text = region.textContent ?? '';
          if (text && heard.at(-1) !== text) heard.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const heard = () => page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    const hear = (text: string) =>
      page.waitForFunction((t) => (window as unknown as { heard: string[] }).heard.includes(t), text, { timeout: 5000 });
    const Moved = `Project ${moved}`;
    await handle.focus();
    await page.keyboard.press('Space');
    await hear(`Picked up project ${moved}, at position 1 of ${count}.`);
    await page.keyboard.press('ArrowDown');
    await hear(`${Moved} is over position 2 of ${count}.`);
    await page.keyboard.press('ArrowDown');
    await hear(`${Moved} is over position 3 of ${count}.`);
    await page.keyboard.press('Space');
    await hear(`${Moved} dropped at position 3 of ${count}.`);
    assert.deepEqual(await heard(), [
      `Picked up project ${moved}, at position 1 of ${count}.`,
      `${Moved} is over position 2 of ${count}.`,
      `${Moved} is over position 3 of ${count}.`,
      `${Moved} dropped at position 3 of ${count}.`,
    ]);
    // Focus stayed on the moved project's handle, to move it again.
    await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, `Reorder project ${moved}`);
    const expected = [titles[1], titles[2], moved, ...titles.slice(3)];
    assert.deepEqual(await publishedTitles(page, suite.server), expected);
    assert.deepEqual(await editorViolations(page), []);
    await close();
  });

  test('revert publishes an earlier version again, after asking', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await nameField(page).fill('First Published');
    await allSaved(page);
    await publish(page);
    const first = await published(suite.server);
    await nameField(page).fill('Second Published');
    await publish(page); // saves the edit first
    assert.equal((await published(suite.server)).document.profile.name, 'Second Published');

    await openPart(page, 'Versions');
    await page.getByRole('button', { name: `Revert to version ${first.version}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revert to version ${first.version}?` });
    await dialog.waitFor();
    assert.deepEqual(await editorViolations(page), []);
    await dialog.getByRole('button', { name: 'Revert' }).click();
    await page.getByRole('status').filter({ hasText: `Version ${first.version} is published again` }).waitFor();
    const now = await published(suite.server);
    assert.deepEqual(now.document, first.document);
    assert.ok(now.version > first.version);
    await openPart(page, 'Profile');
    assert.equal(await nameField(page).inputValue(), 'First Published');
    await close();
  });

  test('a skill picks its logo from the bundled set, and an award is added to a job', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    await openPart(page, 'Skills');
    await page.getByRole('button', { name: 'Add a skill' }).click();
    await page.waitForFunction(() => document.activeElement?.id.startsWith('field-skills-'));
    await page.keyboard.type('Docker-free Rust');
    await page.getByRole('region', { name: /^Skill \d+: Docker-free Rust$/ }).getByLabel('Logo').selectOption({ label: 'Git' });
    await openPart(page, 'Experience');
    const job = await openItem(page, /^Experience 1:/);
    await job.getByRole('button', { name: /^Add an award to / }).click();
    await job.getByRole('region', { name: /^Award \d+: untitled$/ }).getByLabel('Award title').fill('Team Award');
    assert.deepEqual(await editorViolations(page), []);
    await allSaved(page);
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
    for (const [label] of PARTS) {
      await openPart(page, label);
      const firstItem = page.locator('#editor-part [aria-expanded="false"]').first();
      if ((await firstItem.count()) > 0) await firstItem.click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${label}: the editor is ${overflow} px wider than the phone`);
      const small = await page
        .locator('main button, main input:not([type=file], [type=radio], [type=checkbox]), main select, main a')
        .evaluateAll((elements) =>
          elements
            .filter((e) => e.getBoundingClientRect().height > 0 && e.getBoundingClientRect().height < 44)
            .filter((e) => !(e.tagName === 'A' && e.closest('p, li:not(nav li)')))
            .map((e) => e.getAttribute('aria-label') ?? e.textContent ?? e.id),
        );
      assert.deepEqual(small, [], label);
    }
    assert.deepEqual(await editorViolations(page), []);
    await close();
  });

  test('the preview follows the part at a phone or a desktop width, or says plainly when it cannot be loaded', async () => {
    const { page, close } = await openPage(suite.browser, suite.server);
    await signIn(page, suite.server);
    await openEditor(page);
    const frame = page.locator('iframe[title^="Preview of the draft"]');
    const message = page.getByText('The preview could not be loaded.');
    await frame.or(message).first().waitFor();
    const answered = await fetch(`${suite.server.url}/api/content/draft/preview`, {
      headers: { Cookie: await ownerCookie(suite.server) },
    });
    assert.equal(await frame.count(), answered.ok ? 1 : 0);
    assert.equal(await message.count(), answered.ok ? 0 : 1);
    if (!answered.ok) return close();

    const widths = page.getByRole('group', { name: 'Preview width' });
    assert.equal(await widths.getByRole('button', { name: 'Phone' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await frame.getAttribute('width'), '390');
    await widths.getByRole('button', { name: 'Desktop' }).click();
    assert.equal(await widths.getByRole('button', { name: 'Desktop' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await frame.getAttribute('width'), '1280');
    // The page inside lays out at that width, scaled down to fit beside the form.
    const inner = page.frameLocator('iframe[title^="Preview of the draft"]');
    await inner.locator('#projects').waitFor({ state: 'attached' });
    assert.equal(await inner.locator('html').evaluate(() => window.innerWidth), 1280);
    const shown = (await frame.boundingBox())!;
    assert.ok(shown.width < 1280 / 2, `the desktop preview is scaled to ${shown.width} px`);

    // It follows the part being edited, scrolling the frame alone (the editor stays where it is).
    const editorScroll = await page.evaluate(() => window.scrollY);
    await openPart(page, 'Projects');
    await page.waitForFunction(() => {
      const frame = document.querySelector<HTMLIFrameElement>('iframe[title^="Preview of the draft"]');
      const target = frame?.contentDocument?.getElementById('projects');
      return target !== null && target !== undefined && Math.abs(target.getBoundingClientRect().top) < 200;
    });
    assert.equal(await page.evaluate(() => window.scrollY), editorScroll);
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
      await openPart(page, 'Resume');
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
      await openPart(owner.page, 'Projects');
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
      // The upload is re-encoded by the server; its preview shows once the project points at it.
      await project.locator('img[src^="/media/"]').waitFor();
      await project.getByLabel('Alt text of the screenshot').fill('The screenshot project');
      await publish(owner.page);
      const live = await published(suite.server);
      const image = live.document.media.find((m) => m.id === live.document.projects.at(-1)!.image)!;
      assert.match(image.sources[0]!.src, /^\/media\//);
      await owner.close();

      // With JavaScript off the server's page carries both.
      const noScript = await suite.browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
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
      // A first visit puts the web font in the cache, so what is measured is hydration's own shift
      // (a font arriving after the first paint on a loaded machine moves the text by about 0.003,
      // issue 47's open item; seo.test.ts does the same).
      await visitor.page.goto(suite.server.url + '/', { waitUntil: 'load' });
      await visitor.page.evaluate(() => document.fonts.ready.then(() => undefined));
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
