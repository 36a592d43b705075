import type { RouteObject } from 'react-router';

/**
 * The URL patterns of a route table (`/`, `/login`, `/posts/:id`, `/docs/*`), sorted. The build
 * writes them into `dist/routes.json`, from which the server tells a page of the app (200) from
 * an unknown address (404). Every route with a path or `index` counts: a parent without an index
 * child still renders at its own path.
 */
export function routePaths(routes: readonly RouteObject[], parent = '/'): string[] {
  const paths = new Set<string>();
  for (const route of routes) {
    const path = route.path === undefined ? parent : join(route.path.startsWith('/') ? '/' : parent, route.path);
    if (route.index || route.path !== undefined) paths.add(path);
    for (const child of routePaths(route.children ?? [], path)) paths.add(child);
  }
  return [...paths].sort();
}

function join(parent: string, path: string): string {
  return `/${[...parent.split('/'), ...path.split('/')].filter(Boolean).join('/')}`;
}
