import { Outlet } from 'react-router';
import { SiteChrome } from './site-chrome';

/** Wraps every routed page in what appears on all of them (see `SiteChrome`). */
export function RootLayout() {
  return (
    <SiteChrome>
      <Outlet />
    </SiteChrome>
  );
}
