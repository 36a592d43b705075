/**
 * The JSON-LD of every public page (`/`, a language's, an application link's), as the real
 * server sends it, true to schema.org: each page's block is written into a TypeScript file as a
 * literal of schema-dts's `WithContext<ProfilePage>` and the project's compiler checks it
 * (`--strict`), so a property its type lacks (`inLanguage` on the `Person`, say) or a value of
 * the wrong shape fails with tsc's diagnostics. A control copy with such a property must fail,
 * so the check cannot pass by being lax. The values a type cannot tell (`url`, `inLanguage`,
 * `dateModified`, `sameAs`) are checked against the page.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from './harness.ts';
import { OWNER_ENV } from './helpers.ts';
import { ownerPages, type OwnerPage } from './owner-pages.ts';

const web = resolve(import.meta.dirname, '..');
const TSC = join(web, 'node_modules/typescript/bin/tsc');

/** The page's JSON-LD block, as written. */
function jsonLd(page: OwnerPage): string {
  const blocks = [...page.html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
  assert.equal(blocks.length, 1, `${page.path} has one JSON-LD block`);
  return blocks[0]![1]!;
}

/** A module declaring each block as a `WithContext<ProfilePage>`, one constant per page. */
function typed(blocks: { path: string; json: string }[]): string {
  return [
    "import type { ProfilePage, WithContext } from 'schema-dts';",
    ...blocks.map(({ path, json }, i) => `// ${path}\nexport const page${i}: WithContext<ProfilePage> = ${json};`),
    '',
  ].join('\n');
}

describe('the JSON-LD is true to schema.org', () => {
  let server: RunningServer;
  let pages: OwnerPage[];
  before(async () => {
    server = await startServer({ env: OWNER_ENV });
    pages = await ownerPages(server);
  });
  after(() => server?.stop());

  test('each page\'s ProfilePage and its Person type-check against schema-dts with tsc --strict', () => {
    const blocks = pages.map((page) => ({ path: page.path, json: jsonLd(page) }));
    // The control: the first page's, with a property schema.org gives a page but not a person.
    const person = '"mainEntity":{"@type":"Person",';
    assert.ok(blocks[0]!.json.includes(person), 'the main entity is a Person');
    const control = blocks[0]!.json.replace(person, `${person}"inLanguage":"en",`);

    const dir = mkdtempSync(join(tmpdir(), 'portfolio-json-ld-'));
    try {
      // The compiler resolves schema-dts from the project's dependencies.
      symlinkSync(join(web, 'node_modules'), join(dir, 'node_modules'));
      writeFileSync(join(dir, 'pages.ts'), typed(blocks));
      writeFileSync(join(dir, 'control.ts'), typed([{ path: `${blocks[0]!.path} with inLanguage on the Person`, json: control }]));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', types: [], skipLibCheck: true },
          files: ['pages.ts', 'control.ts'],
        }),
      );
      const run = spawnSync(process.execPath, [TSC, '-p', '.', '--noEmit', '--strict', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
      const lines = run.stdout.trim().split('\n').filter(Boolean);
      assert.deepEqual(
        lines.filter((line) => !line.startsWith('control.ts')),
        [],
        `tsc finds the served JSON-LD untrue to schema-dts's types:\n${run.stdout}${run.stderr}\n${typed(blocks)}`,
      );
      assert.equal(run.status, 2, `tsc fails on the control alone (exit ${run.status}):\n${run.stdout}${run.stderr}`);
      assert.equal(lines.length, 1, run.stdout);
      assert.match(lines[0]!, /error TS2353: .*'"inLanguage"' does not exist in type 'PersonLeaf'/);
      console.log(`tsc --strict: the JSON-LD of ${blocks.map((b) => b.path).join(', ')} is a WithContext<ProfilePage>; the control fails: ${lines[0]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('each page\'s JSON-LD names the page, its language, when it was published and the owner\'s profiles', () => {
    for (const page of pages) {
      const data = JSON.parse(jsonLd(page)) as Record<string, unknown> & { mainEntity: Record<string, unknown> };
      const lang = /<html lang="([^"]+)"/.exec(page.html)?.[1];
      assert.equal(data.url, page.canonical, page.path);
      assert.equal(data.inLanguage, lang, page.path);
      assert.match(String(data.dateModified), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, `${page.path}: published, an ISO 8601 date and time`);
      assert.ok(Math.abs(Date.parse(String(data.dateModified)) - Date.now()) < 10 * 60_000, `${page.path}: published just now`);
      assert.equal(data.mainEntity.name, page.document.profile.name, page.path);
      assert.equal(data.mainEntity.jobTitle, page.document.profile.role, page.path);
      assert.deepEqual(data.mainEntity.sameAs, page.document.social.map((link) => link.url), page.path);
    }
  });
});
