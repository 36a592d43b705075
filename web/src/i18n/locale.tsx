import { createContext, Fragment, useContext, type ReactNode } from 'react';
import type en from './en.json';
// The English texts of the landing page's first chunk; each lazily loaded chunk adds its own (addEnglish).
import landing from './en.json?languageName,nav,resume,hero,about,skills,social,footer,offer,error&part';

/** A fixed text's key in the string table, without its plural suffix (`projects.shown`, not `projects.shown#one`). */
export type TextKey = keyof typeof en extends infer K ? (K extends `${infer Base}#${string}` ? Base : K) : never;

/** A page's fixed texts by key: plural forms are keys of their own, `key#one`, `key#other` … (Intl.PluralRules' categories). */
export type Strings = Readonly<Record<string, string>>;

/** Another published language, as the switch and the offer show it. */
export interface LocaleLanguage {
  tag: string;
  /** Its name in itself, e.g. `Deutsch`. */
  name: string;
  /** Its page, e.g. `/de/`. */
  href: string;
  dir: 'ltr' | 'rtl';
  /** The offer to switch, in that language: `offer.text`, `offer.switch`, `offer.dismiss`. */
  offer: Strings;
}

/**
 * The language a page is in: its fixed texts (the built-in table merged with the owner's), and the
 * published languages. The server puts it in each page's data (see `content/embedded.ts`); a page
 * without one (one language, the built-in English texts) takes the English table bundled here.
 */
export interface Locale {
  tag: string;
  dir: 'ltr' | 'rtl';
  strings: Strings;
  languages: readonly LocaleLanguage[];
}

/** The English texts loaded so far: the fallback of every table, and the table of a page without a locale block. */
const english: Record<string, string> = { ...landing };

/** Adds a lazily loaded chunk's English texts (`import texts from './en.json?form&part'`). */
export function addEnglish(texts: Strings): void {
  Object.assign(english, texts);
}

export const englishLocale: Locale = { tag: 'en', dir: 'ltr', strings: english, languages: [] };

type Values = Readonly<Record<string, string | number>>;

/** `text` with each `{name}` replaced by its value; a name without a value is left as written. */
function fill(text: string, values: Values | undefined): string {
  return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;
}

/** Reads the fixed texts of one locale. */
export class Translator {
  readonly #locale: Locale;
  #rules: Intl.PluralRules | undefined;

  constructor(locale: Locale) {
    this.#locale = locale;
  }

  #text(key: string): string {
    return this.#locale.strings[key] ?? english[key] ?? key;
  }

  /** The text of `key`, its `{placeholders}` filled from `values`. */
  t(key: TextKey, values?: Values): string {
    return fill(this.#text(key), values);
  }

  /** The form of `key` that `count` takes in this language (`key#one`, `key#few` …, else `key#other`), with `{count}` filled. */
  plural(key: TextKey, count: number, values?: Values): string {
    // The server's JavaScript engine has no Intl: it never renders a count (the page's counts are drawn on the client).
    this.#rules ??= typeof Intl === 'undefined' ? undefined : new Intl.PluralRules(this.#locale.tag);
    const form = `${key}#${this.#rules?.select(count) ?? 'other'}`;
    const text = form in this.#locale.strings ? this.#locale.strings[form]! : this.#text(`${key}#other`);
    return fill(text, { count: count.toLocaleString(this.#locale.tag), ...values });
  }

  /** The text of `key` with each `{placeholder}` replaced by an element, for texts with markup inside. */
  rich(key: TextKey, parts: Readonly<Record<string, ReactNode>>): ReactNode {
    return this.#text(key)
      .split(/\{(\w+)\}/)
      .map((piece, index) => <Fragment key={index}>{index % 2 === 1 ? (parts[piece] ?? `{${piece}}`) : piece}</Fragment>);
  }
}

const LocaleContext = createContext<Locale>(englishLocale);
const TranslatorContext = createContext<Translator>(new Translator(englishLocale));

/** The locale of everything below it. */
export function LocaleProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <LocaleContext value={locale}>
      <TranslatorContext value={new Translator(locale)}>{children}</TranslatorContext>
    </LocaleContext>
  );
}

export const useLocale = (): Locale => useContext(LocaleContext);

/** The address of the page in the locale's language: `/` for the default, `/de/` … for the others. */
export function homeOf(locale: Locale): string {
  return locale.languages.find((language) => language.tag === locale.tag)?.href ?? '/';
}

/** The fixed texts of the page's language. */
export const useTexts = (): Translator => useContext(TranslatorContext);
