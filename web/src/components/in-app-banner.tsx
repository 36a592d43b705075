import { useEffect, useRef, useState } from 'react';
import { Icon } from './icon';
import { BANNER_DISMISSED } from './in-app-browser';
import { androidIntentUrl, isAndroid, isIos } from './in-app-platform';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?banner&part';

addEnglish(englishTexts);

/**
 * Shown inside the in-app browsers of LinkedIn, Facebook, Instagram and Twitter, which handle
 * downloads and forms poorly: a slim bar under the navigation that suggests the real browser and
 * scrolls away with the page, clear of the hero's buttons. "Open in browser" does what the
 * platform allows: on Android an intent opens the default browser; on iOS, where a page cannot
 * open Safari, it copies the link and says how to open it there. Shown by the site's chrome after
 * mount (the user agent is not known when the page is pre-rendered); dismissal lasts the session.
 */
export default function InAppBanner({ onDismiss }: { onDismiss: () => void }) {
  const texts = useTexts();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const close = useRef<HTMLButtonElement>(null);
  // Once the link is copied (or not), the message takes the button's place: focus goes on to Close.
  useEffect(() => {
    if (copied) close.current?.focus();
  }, [copied]);
  const agent = navigator.userAgent;
  const here = window.location.href;

  const dismiss = () => {
    try {
      sessionStorage.setItem(BANNER_DISMISSED, '1');
    } catch {
      // Nothing to remember it in; it stays dismissed until the next load.
    }
    onDismiss();
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(here);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section aria-label={texts.t('banner.label')} className="overlay-bar">
      <p role="status">
        {copied === 'yes' && texts.t(isIos(agent) ? 'banner.copiedIos' : 'banner.copied')}
        {copied === 'failed' &&
          texts.rich('banner.copy', { link: <bdi dir="ltr" className="break-all text-white">{here}</bdi> })}
        {copied === null && texts.t('banner.text')}
      </p>
      {isAndroid(agent) ? (
        <a className="btn btn-primary px-3" href={androidIntentUrl(here)}>
          {texts.t('banner.open')}
        </a>
      ) : (
        copied === null && (
          <button type="button" className="btn btn-primary px-3" onClick={copy}>
            {texts.t('banner.open')}
          </button>
        )
      )}
      <button ref={close} type="button" className="icon-btn border-transparent bg-transparent" aria-label={texts.t('banner.dismiss')} onClick={dismiss}>
        <Icon name="x" className="size-5" />
      </button>
    </section>
  );
}
