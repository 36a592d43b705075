import { describe, expect, test } from 'vitest';
import { rulesMatching } from '../scripts/rules-matching.mjs';
import { withoutUnusedProperties } from '../scripts/unused-properties.mjs';

const SHEET = [
  '@layer properties{@supports (-moz-orient:inline){*,:before{--tw-shadow:0 0 #0000;--tw-rotate-x:initial}}}',
  '@layer theme{:root{--font-sans:system-ui;--default-font-family:var(--font-sans);--color-red-100:#ffe2e2;--color-blue-500:#3080ff;--spacing:.25rem}',
  '@supports (color:lab(0% 0 0)){:root{--color-red-100:lab(92% 10 3);--color-blue-500:lab(54% 13 -74)}}}',
  '@layer base{html{font-family:var(--default-font-family)}}',
  '@layer utilities{.shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:var(--tw-shadow)}.text-blue-500{color:var(--color-blue-500)}}',
  ':root[data-scheme=light]{--color-red-100:#c10007}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
  '@property --tw-rotate-x{syntax:"*";inherits:false}',
].join('');

describe('withoutUnusedProperties', () => {
  const { css, removed } = withoutUnusedProperties(SHEET, '<p style="margin:calc(var(--spacing) * 2)">x</p>');

  test('leaves out the properties nothing reads, wherever they are defined', () => {
    expect(removed).toEqual(['--color-red-100', '--tw-rotate-x']);
    expect(css).not.toMatch(/--tw-rotate-x|--color-red-100:#ffe2e2|lab\(92%/);
  });

  test('keeps the rules that set a property nothing here reads: a later state may', () => {
    expect(css).toContain(':root[data-scheme=light]{--color-red-100:#c10007}');
  });

  test('keeps those a rule, the HTML or a kept property names, with their @property and fallback', () => {
    for (const kept of [
      '--default-font-family:var(--font-sans)',
      '--font-sans:system-ui',
      '--color-blue-500:#3080ff',
      '--color-blue-500:lab(54% 13 -74)',
      '--spacing:.25rem',
      '@property --tw-shadow',
      '*,:before{--tw-shadow:0 0 #0000}',
    ]) {
      expect(css).toContain(kept);
    }
    expect(css).toContain('.shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:var(--tw-shadow)}');
  });

  test('drops what is left empty and changes nothing when every property is read', () => {
    const { css: bare } = withoutUnusedProperties('@layer theme{:root{--unused:1}}.a{color:red}', '');
    expect(bare).toBe('.a{color:red}');
    expect(withoutUnusedProperties(css, '<p style="margin:calc(var(--spacing) * 2)">').css).toBe(css);
  });
});

describe('rulesMatching', () => {
  const whole = [
    '/*! a banner */@layer theme{:root{--c:red}}',
    '@property --tw-x{syntax:"*";inherits:false}',
    '@font-face{font-family:X;src:url(/x.woff2)}',
    '.lang-button{color:var(--c)}.card{color:blue}',
    '@media (min-width:40rem){.lang-menu{inset:0}.card{padding:0}}',
    '@supports (color:lab(0% 0 0)){.card{color:lab(50% 0 0)}}',
    '[dir=rtl] .mirror-rtl{scale:-1 1}',
  ].join('');

  test('keeps the rules whose selector matches, inside their at-rules, and nothing else', () => {
    expect(rulesMatching(whole, /\.lang-|\[dir=rtl/)).toBe(
      '.lang-button{color:var(--c)}@media (min-width:40rem){.lang-menu{inset:0}}[dir=rtl] .mirror-rtl{scale:-1 1}',
    );
  });

  test('is empty when no rule matches', () => {
    expect(rulesMatching(whole, /\.nothing/)).toBe('');
  });
});
