import { lazy, Suspense, type ReactNode } from 'react';
import { CursorDot } from '../components/cursor-dot';
import { isInAppBrowser } from '../components/in-app-browser';
import { useLocale } from '../i18n/locale';
import { useIsClient } from '../components/use-media-query';
import { throwIfTestAsks } from '../components/test-render-error';

// Only visitors inside an app's browser download the banner's code.
const InAppBanner = lazy(() => import('../components/in-app-banner'));
// Only pages with several languages download the offer to switch.
const LanguageOffer = lazy(() => import('../components/language-offer'));

/** What appears around every page: the cursor dot and the in-app browser banner. */
export function SiteChrome({ children }: { children: ReactNode }) {
  throwIfTestAsks('page');
  // The user agent is unknown when the page is pre-rendered: decide after hydration.
  const client = useIsClient();
  const { languages } = useLocale();
  return (
    <>
      {children}
      {client && languages.length > 1 && (
        <Suspense fallback={null}>
          <LanguageOffer />
        </Suspense>
      )}
      {client && isInAppBrowser(navigator.userAgent) && (
        <Suspense fallback={null}>
          <InAppBanner />
        </Suspense>
      )}
      <CursorDot />
    </>
  );
}
