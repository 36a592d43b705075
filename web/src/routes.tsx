import type { RouteObject } from 'react-router';
import { RootLayout } from './pages/root-layout';
import { HomePage } from './pages/home';
import { LoginPage } from './pages/login';
import { LoadingPage } from './pages/loading';

/**
 * The route table, kept apart from the router so tests and the pre-renderer can build
 * their own router from it. No errorElement: unknown routes and render errors fall to
 * the router's default error page ("Unexpected Application Error!").
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: LoadingPage,
    children: [
      { index: true, Component: HomePage },
      { path: 'login', Component: LoginPage },
      {
        path: 'dashboard',
        lazy: async () => {
          const { DashboardPage } = await import('./pages/dashboard');
          return { Component: DashboardPage };
        },
      },
    ],
  },
];
