import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { CursorDot } from '../components/cursor-dot';
import { isInAppBrowser } from '../components/in-app-browser';
import { useIsClient } from '../components/use-media-query';
import { throwIfTestAsks } from '../components/test-render-error';

// Only visitors inside an app's browser download the banner's code.
const InAppBanner = lazy(() => import('../components/in-app-banner'));

/** Wraps every page: what appears on all of them (the cursor dot, the in-app browser banner) lives here. */
export function RootLayout() {
  throwIfTestAsks('page');
  // The user agent is unknown when the page is pre-rendered: decide after hydration.
  const client = useIsClient();
  return (
    <>
      <Outlet />
      {client && isInAppBrowser(navigator.userAgent) && (
        <Suspense fallback={null}>
          <InAppBanner />
        </Suspense>
      )}
      <CursorDot />
    </>
  );
}
