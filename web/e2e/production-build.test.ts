/**
 * The build output ships React Router's production build: no built file carries its
 * development-only warnings or the "Hey developer" error screen. And the build lists the app's
 * routes for the server. No server, no browser.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { DEV_ONLY_TEXT, devOnlyTextIn } from '../scripts/dev-only-text.mjs';

const dist = resolve(import.meta.dirname, '../dist');
/** Every text file of the build (the .br and .gz files are the same bytes compressed). */
const builtFiles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
  /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/.test(file),
);

test('the development-only text checked for is what React Router development build carries', () => {
  const reactRouter = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const development = join(reactRouter, 'dist/development');
  const source = readdirSync(development)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => readFileSync(join(development, file), 'utf8'))
    .join('\n');
  assert.deepEqual(devOnlyTextIn(source), [...DEV_ONLY_TEXT]);
});

test('no built file carries React Router development-only text', () => {
  assert.ok(builtFiles.some((file) => file.startsWith('assets/') && file.endsWith('.js')), 'the build has scripts');
  const found = builtFiles.flatMap((file) =>
    devOnlyTextIn(readFileSync(join(dist, file), 'utf8')).map((text) => `${file}: ${text}`),
  );
  assert.deepEqual(found, []);
});

test('the build lists the routes of the app for the server', () => {
  const routes = JSON.parse(readFileSync(join(dist, 'routes.json'), 'utf8')) as unknown;
  assert.ok(Array.isArray(routes) && routes.every((r) => typeof r === 'string' && r.startsWith('/')), JSON.stringify(routes));
  for (const path of ['/', '/login', '/dashboard']) assert.ok(routes.includes(path), `${path} in ${JSON.stringify(routes)}`);
});
