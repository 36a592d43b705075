/** Size budgets, checked exactly on the build output (not timed). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

function gzipped(file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
}

/** The entry chunk and everything it imports statically: what `/` must download before it runs. */
function initialFiles(): { js: string[]; css: string[] } {
  const entry = manifest['index.html'];
  assert.ok(entry?.isEntry, 'the manifest names index.html as the entry');
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
    chunk.imports?.forEach(visit);
  };
  visit('index.html');
  return { js: [...js], css: [...css] };
}

export const KB = 1024;

test('the landing page loads at most 110 KB of gzipped JavaScript', () => {
  const total = initialFiles().js.reduce((sum, file) => sum + gzipped(file), 0);
  console.log(`initial JavaScript: ${(total / KB).toFixed(1)} KB gzipped`);
  assert.ok(total <= 110 * KB, `initial JavaScript is ${(total / KB).toFixed(1)} KB gzipped`);
});

test('the dashboard is not part of the initial JavaScript', () => {
  const { js } = initialFiles();
  assert.ok(!js.some((file) => file.includes('dashboard')), `initial chunks: ${js.join(', ')}`);
});
