import { describe, expect, test } from 'vitest';
import { routePaths } from './route-paths';
import { routes } from './routes';

describe('routePaths', () => {
  test('lists the pages of the app', () => {
    expect(routePaths(routes)).toEqual(['/', '/dashboard', '/login', '/login/reset', '/login/sign-out']);
  });

  test('joins nested, absolute, index, pathless, parameter and splat routes', () => {
    expect(
      routePaths([
        {
          path: '/',
          children: [
            { index: true },
            { path: 'blog', children: [{ index: true }, { path: ':slug' }] },
            { children: [{ path: '/docs/*' }, { path: 'about/' }] },
            { path: ':lang?/contact' },
          ],
        },
      ]),
    ).toEqual(['/', '/:lang?/contact', '/about', '/blog', '/blog/:slug', '/docs/*']);
  });
});
