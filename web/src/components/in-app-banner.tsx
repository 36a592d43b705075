import { useState } from 'react';
import { Icon } from './icon';
import { androidIntentUrl, isAndroid, isInAppBrowser } from './in-app-browser';
import { useIsClient } from './use-media-query';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?banner&part';

addEnglish(englishTexts);

type Mode = { kind: 'android'; href: string } | { kind: 'copy' };

const STORAGE_KEY = 'in-app-banner-dismissed';

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(STORAGE_KEY) === '1';
  } catch {
    return false; // Storage can be disabled: show the banner anyway.
  }
}

/**
 * Shown inside the in-app browsers of LinkedIn, Facebook, Instagram and Twitter, which handle
 * downloads and forms poorly: it suggests opening the site in the real browser. Decided after
 * mount (the user agent is not known when the page is pre-rendered); dismissal lasts the session.
 */
export default function InAppBanner() {
  const client = useIsClient();
  const [dismissed, setDismissed] = useState(false);
  const texts = useTexts();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  if (!client || dismissed || !isInAppBrowser(navigator.userAgent) || wasDismissed()) return null;
  const mode: Mode = isAndroid(navigator.userAgent)
    ? { kind: 'android', href: androidIntentUrl(window.location.href) }
    : { kind: 'copy' };

  const dismiss = () => {
    setDismissed(true);
    try {
      sessionStorage.setItem(STORAGE_KEY, '1');
    } catch {
      // Nothing to remember it in; it stays dismissed until the next load.
    }
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section
      aria-label={texts.t('banner.label')}
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-xl rounded-xl border border-gray-700 bg-gray-900/95 p-4 shadow-2xl shadow-black/50 backdrop-blur"
    >
      <div className="flex items-start gap-3">
        <p className="flex-1 text-sm text-gray-200">
          {texts.rich('banner.text', {
            menu: <strong className="text-white">{texts.t('banner.menu')}</strong>,
            share: <strong className="text-white">{texts.t('banner.share')}</strong>,
          })}
        </p>
        <button type="button" className="icon-btn -mt-1 -me-1 border-transparent" aria-label={texts.t('banner.dismiss')} onClick={dismiss}>
          <Icon name="x" className="size-5" />
        </button>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {mode.kind === 'android' ? (
          <a className="btn btn-primary" href={mode.href}>
            <Icon name="external-link" className="size-4" />
            {texts.t('banner.open')}
          </a>
        ) : (
          <button type="button" className="btn btn-primary" onClick={copy}>
            {copied === 'yes' ? <Icon name="check" className="size-4" /> : <Icon name="copy" className="size-4" />}
            {texts.t('banner.open')}
          </button>
        )}
        <p role="status" className="text-sm text-gray-300">
          {copied === 'yes' && texts.t('banner.copied')}
          {copied === 'failed' && (
            <>
              {texts.rich('banner.copy', { link: <span className="break-all text-white">{window.location.href}</span> })}
            </>
          )}
        </p>
      </div>
    </section>
  );
}
