import type { RouteObject } from 'react-router';
import { RootLayout } from './pages/root-layout';
import { HomePage } from './pages/home';
import { LoadingPage } from './pages/loading';
import { ErrorPage } from './pages/error-page';
import { redirectSignedIn, requireOwner } from './auth/guards';

/**
 * The route table, kept apart from the router so tests and the pre-renderer can build
 * their own router from it. The build also lists its paths for the server (`route-paths.ts`),
 * which answers any other page address with a 404: a route added here is known to both.
 *
 * Unknown routes and render errors show the designed error page ("Unexpected Application
 * Error!"); the dashboard catches its own, so the owner stays in it, signed in.
 *
 * The login page and the dashboard are lazily loaded chunks, so neither is in the landing
 * page's JavaScript; their guards are small loaders that run while the chunk arrives.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingPage,
    ErrorBoundary: ErrorPage,
    children: [
      { index: true, Component: HomePage },
      {
        path: 'login',
        loader: redirectSignedIn,
        lazy: async () => {
          const { LoginPage } = await import('./pages/login');
          return { Component: LoginPage };
        },
      },
      // The pages the owner's e-mails link to, `/login/reset` (a reset link's) and `/login/sign-out`
      // (a security notice's): one chunk, the reset page's, holds both, so this table, part of
      // every page's JavaScript, names it once.
      ...(['reset', 'sign-out'] as const).map((page) => ({
        path: `login/${page}`,
        lazy: async () => ({ Component: (await import('./pages/reset-password')).pages[page] }),
      })),
      {
        path: 'dashboard',
        id: 'dashboard',
        loader: requireOwner,
        // The session is asked for when the dashboard opens, not again at each move between its
        // views and the editor's parts (its search parameters): a request that finds the session
        // gone is answered 401, which the dashboard handles. Asking at every move cost a request
        // each time, and one that failed on a loaded machine showed the error page.
        shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
          currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
        lazy: async () => {
          const { DashboardPage, DashboardError } = await import('./pages/dashboard');
          return { Component: DashboardPage, ErrorBoundary: DashboardError };
        },
      },
    ],
  },
];
