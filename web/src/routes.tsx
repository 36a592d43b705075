import type { RouteObject } from 'react-router';
import { RootLayout } from './pages/root-layout';
import { HomePage } from './pages/home';
import { LoadingPage } from './pages/loading';
import { redirectSignedIn, requireOwner } from './auth/guards';

/**
 * The route table, kept apart from the router so tests and the pre-renderer can build
 * their own router from it. No errorElement: unknown routes and render errors fall to
 * the router's default error page ("Unexpected Application Error!").
 *
 * The login page and the dashboard are lazily loaded chunks, so neither is in the landing
 * page's JavaScript; their guards are small loaders that run while the chunk arrives.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingPage,
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
      {
        path: 'dashboard',
        id: 'dashboard',
        loader: requireOwner,
        lazy: async () => {
          const { DashboardPage } = await import('./pages/dashboard');
          return { Component: DashboardPage };
        },
      },
    ],
  },
];
