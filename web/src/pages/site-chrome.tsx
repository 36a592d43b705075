import { lazy, Suspense, useState, type ReactNode } from 'react';
import { CursorDot } from '../components/cursor-dot';
import { bannerDismissed, isInAppBrowser } from '../components/in-app-browser';
import { useLocale } from '../i18n/locale';
import { useIsClient } from '../components/use-media-query';
import { throwIfTestAsks } from '../components/test-render-error';

// Only visitors inside an app's browser download the banner's code.
const InAppBanner = lazy(() => import('../components/in-app-banner'));
// Only pages with several languages download the offer to switch.
const LanguageOffer = lazy(() => import('../components/language-offer'));

/**
 * What appears around every page: the cursor dot, and one overlay at a time on the first screen:
 * the in-app browser banner, then (once it is dismissed, or where there is none) the offer of
 * another language.
 */
export function SiteChrome({ children }: { children: ReactNode }) {
  throwIfTestAsks('page');
  // The user agent is unknown when the page is pre-rendered: decide after hydration.
  const client = useIsClient();
  const { languages } = useLocale();
  const [bannerGone, setBannerGone] = useState(false);
  const banner = client && !bannerGone && isInAppBrowser(navigator.userAgent) && !bannerDismissed();
  return (
    <>
      {children}
      {client && !banner && languages.length > 1 && (
        <Suspense fallback={null}>
          <LanguageOffer />
        </Suspense>
      )}
      {banner && (
        <Suspense fallback={null}>
          <InAppBanner onDismiss={() => setBannerGone(true)} />
        </Suspense>
      )}
      <CursorDot />
    </>
  );
}
