import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { offeredLanguage } from '../components/language-offer';
import placeholder from '../content/default-document.json';
import en from './en.json';
import { Translator, type Locale, type LocaleLanguage } from './locale';

const folder = import.meta.dirname;
const tables = Object.fromEntries(
  readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name.slice(0, -5), JSON.parse(readFileSync(join(folder, name), 'utf8')) as Record<string, string>]),
);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const locale = (tag: string, strings: Record<string, string>): Locale => ({ tag, dir: 'ltr', strings, languages: [] });

describe('the string tables', () => {
  it("keep the spec's English texts, word for word", () => {
    const spec: Record<string, string> = {
      'nav.home': 'Home',
      'nav.about': 'About',
      'nav.skills': 'Skills',
      'nav.projects': 'Projects',
      'nav.experience': 'Experience',
      'nav.contact': 'Contact',
      'resume.download': 'Download Resume',
      'hero.available': 'Available for new projects',
      'hero.viewWork': 'View My Work',
      'hero.contact': 'Contact',
      'projects.all': 'All',
      'experience.work': 'Work Experience',
      'experience.education': 'Education',
      'contact.info': 'Contact Information',
      'contact.follow': 'Follow Me',
      'form.send': 'Send Message',
      'form.sent': 'Your response has securely sent!',
      'banner.open': 'Open in browser',
      'error.heading': 'Unexpected Application Error!',
    };
    for (const [key, text] of Object.entries(spec)) expect((en as Record<string, string>)[key], key).toBe(text);
    // The headings and the footer's title are the owner's words now: the placeholder document's.
    const { sections, footer } = placeholder;
    expect([sections.about.title, sections.skills.title, sections.projects.title, sections.experience.title, sections.contact.title]).toEqual([
      'About Me',
      'Skills',
      'My Projects',
      'Experience & Education',
      'Get in Touch',
    ]);
    expect([footer.title, footer.since]).toEqual(['Portfolio', 2025]);
  });

  it('are built in for English and at least five more languages', () => {
    expect(Object.keys(tables).sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'he', 'pt']);
  });

  for (const [tag, table] of Object.entries(tables)) {
    it(`${tag} has every key of English, with the same placeholders, and its own plural forms`, () => {
      const rules = new Intl.PluralRules(tag);
      for (const [key, text] of Object.entries(en)) {
        if (key.endsWith('#other')) {
          const base = key.slice(0, -'#other'.length);
          // Every form this language's numbers take has a text (up to 200 covers every category).
          for (let n = 0; n <= 200; n++) expect(table[`${base}#${rules.select(n)}`] ?? table[key], `${tag} ${base} ${n}`).toBeTruthy();
          continue;
        }
        if (key.includes('#')) continue;
        expect(table[key], `${tag} lacks ${key}`).toBeTruthy();
        expect(placeholders(table[key]!), `${tag} ${key}`).toEqual(placeholders(text));
      }
      for (const key of Object.keys(table)) {
        const known = key in en || (key.includes('#') && `${key.split('#')[0]}#other` in en);
        expect(known, `${tag} has an unknown key ${key}`).toBe(true);
      }
    });
  }
});

it('every English text is in a part some module loads', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );
  const prefixes = sources(join(folder, '..')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/en\.json\?([\w.,]+)&part'/g)].flatMap((m) => m[1]!.split(',')),
  );
  const uncovered = Object.keys(en).filter((key) => !prefixes.some((p) => key === p || key.startsWith(`${p}.`)));
  expect(uncovered).toEqual([]);
});

describe('Translator', () => {
  it('fills placeholders and falls back to English for a missing key', () => {
    const texts = new Translator(locale('de', { 'social.on': '{name} auf {site}' }));
    expect(texts.t('social.on', { name: 'Ada', site: 'GitHub' })).toBe('Ada auf GitHub');
    expect(texts.t('nav.home')).toBe('Home');
  });

  it("picks the plural form the language's rules name, else the other form", () => {
    const arabic = new Translator(locale('ar', tables.ar!));
    expect(arabic.plural('projects.shown', 1)).toBe('مشروع واحد معروض');
    expect(arabic.plural('projects.shown', 2)).toBe('مشروعان معروضان');
    expect(arabic.plural('projects.shown', 3)).toMatch(/^(3|٣) مشاريع معروضة$/);
    const english = new Translator(locale('en', en));
    expect(english.plural('projects.shown', 1)).toBe('1 project shown');
    expect(english.plural('projects.shown', 4)).toBe('4 projects shown');
    expect(english.plural('wait.seconds', 1_000)).toBe('1,000 seconds');
  });

  it('puts elements in place of placeholders', () => {
    const texts = new Translator(locale('en', en));
    const html = renderToStaticMarkup(<p>{texts.rich('hero.greeting', { name: <b>Ada</b> })}</p>);
    expect(html).toBe("<p>Hi, I&#x27;m <b>Ada</b></p>");
  });
});

describe('offeredLanguage', () => {
  const language = (tag: string, href: string): LocaleLanguage => ({ tag, name: tag, href, dir: 'ltr', offer: {} });
  const languages = [language('en', '/'), language('de', '/de/'), language('pt-BR', '/pt-br/')];

  it("offers the first published language the browser prefers, unless it is the page's", () => {
    expect(offeredLanguage(['de-AT', 'en'], 'en', languages)?.href).toBe('/de/');
    expect(offeredLanguage(['en-GB', 'de'], 'en', languages)).toBeUndefined();
    expect(offeredLanguage(['fr', 'en-US'], 'de', languages)?.href).toBe('/');
    expect(offeredLanguage(['pt-br'], 'en', languages)?.href).toBe('/pt-br/');
    expect(offeredLanguage(['pt-PT'], 'en', languages)?.href).toBe('/pt-br/');
    expect(offeredLanguage(['fr', 'it'], 'en', languages)).toBeUndefined();
  });
});
