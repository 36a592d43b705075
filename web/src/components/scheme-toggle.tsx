import { useSyncExternalStore } from 'react';
import { Icon } from './icon';
import { useTexts } from '../i18n/locale';

/** The one key the page ever stores, and only once the visitor presses the toggle. */
export const SCHEME_KEY = 'portfolio:scheme';

type Scheme = 'light' | 'dark';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-scheme'] });
  return () => observer.disconnect();
}

function current(): Scheme {
  return document.documentElement.getAttribute('data-scheme') === 'light' ? 'light' : 'dark';
}

/**
 * The visitor's light and dark switch. The scheme itself is set before the first paint by the
 * inline script in index.html (from this choice, or the owner's default); pressing this sets it
 * on <html> and remembers it. Before hydration the server cannot know the scheme, so the button
 * says whether it is pressed only once it runs in the browser.
 */
export function SchemeToggle() {
  const texts = useTexts();
  const scheme = useSyncExternalStore<Scheme | null>(subscribe, current, () => null);
  const light = scheme === 'light';
  return (
    <button
      type="button"
      className="icon-btn"
      aria-label={texts.t('nav.lightScheme')}
      aria-pressed={scheme === null ? undefined : light}
      onClick={() => {
        const next: Scheme = light ? 'dark' : 'light';
        document.documentElement.setAttribute('data-scheme', next);
        try {
          localStorage.setItem(SCHEME_KEY, next);
        } catch {
          // Storage refused (a private window, say): the choice lasts for this page.
        }
      }}
    >
      <Icon name="sun" className="size-5 only-dark" />
      <Icon name="moon" className="size-5 only-light" />
    </button>
  );
}
