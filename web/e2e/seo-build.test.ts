/**
 * The build output read as a crawler or a link preview reads it: dist/index.html must hold the
 * pre-rendered page (every section with its text), the head generated from the profile, the
 * JSON-LD Person, the owner's h-card, and a 1200x630 PNG preview image. No server, no browser.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { profile } from '../src/content/owner.ts';

const dist = resolve(import.meta.dirname, '../dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const shell = readFileSync(join(dist, 'app.html'), 'utf8');
/** The pre-rendered markup inside #root. */
const root = html.slice(html.indexOf('<div id="root">'), html.lastIndexOf('<script type="application/ld+json">'));

const decode = (text: string) =>
  text
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function meta(key: 'name' | 'property', name: string): string | undefined {
  return new RegExp(`<meta ${key}="${name}" content="([^"]*)"`).exec(html)?.[1];
}

test('index.html holds the pre-rendered page, not an empty root', () => {
  assert.ok(root.length > 100, `pre-rendered markup: ${root.slice(0, 200)}`);
  assert.match(root, /<main[\s>]/);
  assert.match(root, /<h1[\s>]/);
  assert.equal(shell.includes('<div id="root"></div>'), true, 'app.html has an empty root');
});

test('every section the navigation links to is in the HTML with its heading and text', () => {
  const anchors = [...new Set([...root.matchAll(/href="#([\w-]+)"/g)].map((m) => m[1]!))].filter((id) => id !== 'main');
  const ids = anchors.length ? anchors : ['home'];
  for (const id of ids) {
    const start = root.search(new RegExp(`<(section|main|div|footer)[^>]* id="${id}"`));
    assert.ok(start >= 0, `an element with id="${id}"`);
    const tag = /^<(\w+)/.exec(root.slice(start))![1]!;
    const next = root.indexOf(`</${tag}>`, start);
    const text = decode(root.slice(start, next));
    assert.ok(text.length > 10, `#${id} has text: "${text}"`);
    assert.match(root.slice(start), /<h[12][\s>]/, `#${id} has a heading`);
  }
});

test('the head is generated from the profile', () => {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  assert.ok(decode(title).includes(profile.name), title);
  assert.ok(decode(title).includes(profile.role), title);
  assert.equal(meta('name', 'description'), attr(profile.summary));
  assert.equal(meta('property', 'og:description'), attr(profile.summary));
  assert.equal(meta('property', 'og:title'), attr(decode(title)));
  assert.equal(meta('name', 'twitter:card'), 'summary_large_image');
  assert.equal(meta('property', 'og:image'), 'https://portfolio.invalid/og-image.png');
  assert.match(html, /<link rel="canonical" href="https:\/\/portfolio\.invalid\/"/);
  assert.ok(!shell.includes('rel="canonical"'), 'the shell has no canonical link');
  assert.match(shell, /<meta name="robots" content="noindex"/);
});

test('the JSON-LD ProfilePage names its language and carries the profile as its main entity', () => {
  const json = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(json, 'a JSON-LD block');
  const page = JSON.parse(json) as Record<string, unknown>;
  assert.equal(page['@type'], 'ProfilePage');
  assert.equal(page.inLanguage, 'en');
  const person = page.mainEntity as Record<string, unknown>;
  assert.equal(person['@type'], 'Person');
  assert.equal(person.name, profile.name);
  assert.equal(person.jobTitle, profile.role);
  assert.equal(person.email, `mailto:${profile.email}`);
  assert.deepEqual(person.sameAs, Object.values(profile.links));
});

test('the built pages run two inline scripts on /, the scheme\'s and the web font\'s for the next page of a visit, none in app.html (hashed into the CSP); / has one <style> element (its stylesheet, hashed too), app.html one of the font faces alone', () => {
  for (const page of [html, shell]) {
    const inline = [...page.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)].filter(([, attributes = '']) => {
      // JSON-LD and the content document are data blocks, which browsers never run.
      const data = attributes.includes('type="application/ld+json"') || attributes.includes('type="application/json"');
      return !/\bsrc="/.test(attributes) && !data;
    });
    const expected = page === html ? ['(()=>{let d=document.documentElement', 'try{document.referrer.indexOf(location.origin+"/")||document.fonts.add(new FontFace('] : [];
    assert.deepEqual(
      inline.map(([, , body = ''], i) => body.slice(0, expected[i]?.length ?? 0)),
      expected,
      page === html ? '/ runs only the script that sets the scheme and the one that declares the font' : 'app.html runs no inline script',
    );
  }
  assert.equal([...html.matchAll(/<style[\s>]/g)].length, 1, 'one <style> element on /');
  // The shell declares the web font, which the whole stylesheet leaves out (scripts/prerender.mjs).
  const shellStyles = [...shell.matchAll(/<style>([^<]*)<\/style>/g)].map((style) => style[1]!);
  assert.equal(shellStyles.length, 1, 'one <style> element in app.html');
  assert.equal(shellStyles[0]!.replace(/@font-face\{[^}]*\}/g, ''), '', 'the font faces alone');
});

test('the first paint of / waits until its hero is parsed (the section after it), not for the whole page', () => {
  const expect = /<link rel="expect" href="#([a-z-]+)" blocking="render">/.exec(html);
  assert.ok(expect, 'a render-blocking expect link');
  const sections = [...html.matchAll(/<section[^>]* id="([^"]+)"/g)].map((match) => match[1]);
  assert.equal(sections[0], 'home', 'the hero is the first section');
  assert.equal(expect[1], sections[1], 'it names the section after the hero');
});

/**
 * A class that microformats2 parsers read as a root (`h-*`) or a property (`p-*`, `u-*`, `dt-*`,
 * `e-*`): the parsing specification's pattern, which mf2py applies. Tailwind's automatic and
 * one-pixel heights matched it; its sizes in numbers do not. (No such class is named in this
 * file: Tailwind reads the tests too, and would make its rule.)
 */
const MICROFORMAT = /^(h|p|u|dt|e)-([a-z0-9]+-)?[a-z]+(-[a-z]+)*$/;

test('no class of the stylesheet is one that microformats parsers read', () => {
  const sheets = readdirSync(join(dist, 'assets')).filter((name) => name.endsWith('.css'));
  assert.ok(sheets.length >= 1, 'the stylesheet');
  const selectors = sheets.flatMap((name) =>
    [...readFileSync(join(dist, 'assets', name), 'utf8').matchAll(/\.((?:\\.|[\w-])+)/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1')),
  );
  assert.ok(selectors.some((name) => /^\w+:\w/.test(name)), 'the selectors are read unescaped (a variant\'s colon)');
  assert.deepEqual([...new Set(selectors.filter((name) => MICROFORMAT.test(name)))], []);
});

/** The classes of a page that microformats parsers read, each once, sorted. */
const microformatClasses = (page: string) =>
  [...new Set([...page.matchAll(/ class="([^"]*)"/g)].flatMap((match) => match[1]!.split(/\s+/)))].filter((name) => MICROFORMAT.test(name)).sort();

test('/ is its owner\'s h-card, the whole page, and its only classes that microformats parsers read are the h-card\'s', () => {
  assert.deepEqual(microformatClasses(html), ['h-card', 'p-adr', 'p-job-title', 'p-name', 'u-email', 'u-photo', 'u-url']);
  assert.match(html, /<html lang="en" class="h-card">/, 'the root is <html>, so that the head\'s canonical link is its URL');
  assert.match(html, /<link rel="canonical" href="https:\/\/portfolio\.invalid\/" class="u-url" \/>/);
  assert.deepEqual(microformatClasses(shell), [], 'the app\'s shell is no h-card');
});
