import { Outlet } from 'react-router';

/** Wraps every page: what appears on all of them (the cursor dot, the in-app browser banner) lives here. */
export function RootLayout() {
  return <Outlet />;
}
