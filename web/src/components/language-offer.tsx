import { useState } from 'react';
import { Icon } from './icon';
import { useLocale, type LocaleLanguage } from '../i18n/locale';

const primary = (tag: string) => tag.toLowerCase().split('-')[0];

/**
 * The published language the visitor's browser prefers, when it is not the page's own: the first
 * of `preferred` that a published language matches (its whole tag, else its primary subtag) decides.
 */
export function offeredLanguage(
  preferred: readonly string[],
  current: string,
  languages: readonly LocaleLanguage[],
): LocaleLanguage | undefined {
  for (const wanted of preferred) {
    const tag = wanted.toLowerCase();
    const match =
      languages.find((language) => language.tag.toLowerCase() === tag) ??
      languages.find((language) => primary(language.tag) === primary(tag));
    if (match) return match.tag === current ? undefined : match;
  }
  return undefined;
}

/**
 * An offer, never a redirect: when the browser prefers another published language, a slim bar
 * under the navigation, in that language, links to its page. Decided in the browser after
 * hydration, so each address keeps one cached page; a dismissal lasts until the page is left and is
 * stored nowhere. Loaded, as a chunk of its own, only on pages with several languages, and shown
 * only once the in-app browser's banner is gone (one overlay at a time on the first screen).
 */
export default function LanguageOffer() {
  const { tag, languages } = useLocale();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  const offer = offeredLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language], tag, languages);
  if (!offer) return null;
  const text = (key: string) => offer.offer[key] ?? '';
  return (
    <section className="overlay-bar" lang={offer.tag} dir={offer.dir} aria-label={text('offer.text')}>
      <p>{text('offer.text')}</p>
      <a className="btn btn-primary px-3" href={offer.href} hrefLang={offer.tag}>
        {text('offer.switch')}
      </a>
      <button type="button" className="icon-btn border-transparent bg-transparent" aria-label={text('offer.dismiss')} onClick={() => setDismissed(true)}>
        <Icon name="x" className="size-5" />
      </button>
    </section>
  );
}
