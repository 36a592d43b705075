/**
 * The routes' error boundary in jsdom: a 404 and a render error both show the designed page in
 * plain words, never the error itself (the browser tests check the same on the built site).
 */
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ContentProvider } from '../content/context';
import { defaultDocument } from '../content/document';
import type { WritingTeaser } from '../content/post-view';
import { WritingTeaserProvider } from '../content/writing-teaser';
import { routes } from '../routes';
import { ErrorPage } from './error-page';

/**
 * jsdom has no IntersectionObserver, which the navigation's section follower (a chunk loaded after
 * the page is drawn) creates: one that observes nothing, left in place for the whole file, since the
 * chunk may arrive after a test has ended (which failed the run as an unhandled rejection).
 */
globalThis.IntersectionObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
} as unknown as typeof IntersectionObserver;

function renderAt(path: string, table: RouteObject[] = routes, writing: WritingTeaser | null = null) {
  render(
    <ContentProvider document={defaultDocument}>
      <WritingTeaserProvider value={writing}>
        <RouterProvider router={createMemoryRouter(table, { initialEntries: [path] })} />
      </WritingTeaserProvider>
    </ContentProvider>,
  );
}

/** jsdom has no media queries: this one answers that the pointer is a fine one (a mouse), so the cursor dot is drawn. */
function aMouse() {
  window.matchMedia = ((query: string) => ({
    matches: query === '(pointer: fine)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}

describe('the error page', () => {
  beforeEach(aMouse);
  afterEach(cleanup);

  test('an unknown address says the page does not exist in its heading, with the site\'s navigation and a way home', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: "This page doesn't exist" })).toBeTruthy();
    // The spec's line, small, above the heading.
    const line = screen.getByText('Unexpected Application Error!');
    expect(line.tagName).toBe('P');
    expect(line.compareDocumentPosition(screen.getByRole('heading', { level: 1 })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the portfolio' }).getAttribute('href')).toBe('/');
    const navigation = screen.getByRole('navigation', { name: 'Main' });
    expect(navigation.querySelector('a[href="/#projects"]')?.textContent).toBe('Projects');
    expect(navigation.querySelector('[aria-current]')).toBeNull();
    expect(document.body.textContent).not.toMatch(/404 Not Found|Hey developer|ErrorBoundary/);
    expect(document.title).toMatch(/^Page not found/);
    // Drawn outside the site's chrome, it brings the cursor dot itself: one, as on every page.
    expect(document.querySelectorAll('[data-cursor-dot]')).toHaveLength(1);
  });

  test("the header has the Writing item where the page's data lists posts (as the home page's header), and not otherwise", async () => {
    renderAt('/no-such-page');
    await screen.findByRole('heading', { level: 1, name: "This page doesn't exist" });
    expect(screen.getByRole('navigation', { name: 'Main' }).querySelector('a[href$="/writing/"]')).toBeNull();
    cleanup();
    const post = {
      id: 'hello',
      title: 'Hello',
      summary: '',
      path: '/de/writing/hello/',
      published: { iso: '2025-03-05T09:00:00Z', text: '5 March 2025' },
      readingTime: '1 min read',
      tags: [],
    };
    renderAt('/no-such-page', routes, { posts: [post], writing: '/de/writing/' });
    await screen.findByRole('heading', { level: 1, name: "This page doesn't exist" });
    const writing = screen.getByRole('navigation', { name: 'Main' }).querySelector('a[href="/de/writing/"]');
    expect([writing?.textContent, writing?.getAttribute('aria-current')]).toEqual(['Writing', null]);
  });

  test('a page that throws while rendering shows no message and no stack trace', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = () => {
      throw new Error('secret internal detail');
    };
    renderAt('/', [{ path: '/', Component: Broken, ErrorBoundary: ErrorPage }]);
    expect(await screen.findByText('Something went wrong on this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/secret internal detail|at Broken|\.tsx/);
    expect(document.querySelectorAll('[data-cursor-dot]')).toHaveLength(1);
  });
});
