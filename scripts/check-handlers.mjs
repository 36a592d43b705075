#!/usr/bin/env node
// Keeps the HTTP handlers thin: every `async fn` in server/src/http/api/ (outside its tests) is
// under LIMIT lines, from its `fn` line to its closing brace, its doc comment and attributes not
// counted; a flow longer than that belongs in its feature module (auth/, contact/, links/…). Prints
// the longest handlers; exits 1 when one is over the limit. `--report` lists every handler and
// never fails.
//
//   node scripts/check-handlers.mjs [--report]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT = 50;
const repo = join(fileURLToPath(import.meta.url), '..', '..');
const root = join(repo, 'server', 'src', 'http', 'api');
const report = process.argv.includes('--report');

function rustFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return rustFiles(path);
      return name.endsWith('.rs') ? [path] : [];
    });
}

/** Each top-level `async fn` of a file before its `#[cfg(test)]`: its name, first line and length. */
function handlers(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const testsAt = lines.findIndex((l) => l.startsWith('#[cfg(test)]'));
  const body = testsAt >= 0 ? lines.slice(0, testsAt) : lines;
  const found = [];
  for (let i = 0; i < body.length; i += 1) {
    const m = /^(?:pub(?:\([^)]*\))? )?async fn (\w+)/.exec(body[i]);
    if (!m) continue;
    const end = body.findIndex((l, j) => j > i && l === '}');
    if (end < 0) continue;
    found.push({ name: m[1], file: relative(repo, file), line: i + 1, length: end - i + 1 });
  }
  return found;
}

const all = rustFiles(root)
  .flatMap(handlers)
  .sort((a, b) => b.length - a.length);
const over = all.filter((h) => h.length >= LIMIT);
const shown = report ? all : all.slice(0, 5);
console.log(`${all.length} handlers in server/src/http/api; the longest:`);
for (const h of shown) console.log(`  ${String(h.length).padStart(3)} lines  ${h.name} (${h.file}:${h.line})`);
if (over.length && !report) {
  console.error(`check-handlers: ${over.length} handler(s) of ${LIMIT} lines or more; move the flow into its feature module`);
  process.exit(1);
}
