/**
 * The login page's session check when the window regains focus: it sends the page to the
 * dashboard when the owner is signed in, but never once the page has gone, or it would undo
 * whatever the next page did meanwhile (a dashboard tab chosen, say).
 */
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useAuthSync } from './use-auth-sync';

function Login() {
  useAuthSync(false);
  return <p>login</p>;
}

/** A fetch of `/api/session` that answers only when `release` is called. */
function heldSession() {
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      await answered;
      return new Response(JSON.stringify({ email: 'owner@example.com' }), { status: 200 });
    }),
  );
  return () => release();
}

function routerAt(path: string) {
  return createMemoryRouter(
    [
      { path: '/login', Component: Login },
      { path: '/dashboard', Component: () => <p>dashboard</p> },
    ],
    { initialEntries: [path] },
  );
}

describe('useAuthSync', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.cookie = 'portfolio_signed_in=; Path=/; Max-Age=0';
  });

  test('a signed-in owner found on focus goes from the login page to the dashboard', async () => {
    const release = heldSession();
    document.cookie = 'portfolio_signed_in=1; Path=/';
    const router = routerAt('/login');
    render(<RouterProvider router={router} />);
    act(() => void window.dispatchEvent(new Event('focus')));
    await act(async () => release());
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  test('an answer that comes after the page has gone navigates nowhere', async () => {
    const release = heldSession();
    document.cookie = 'portfolio_signed_in=1; Path=/';
    const router = routerAt('/login');
    render(<RouterProvider router={router} />);
    act(() => void window.dispatchEvent(new Event('focus')));
    // The sign-in goes on by itself, and the dashboard moves on to a tab of its own.
    await act(() => router.navigate('/dashboard?view=page'));
    await act(async () => release());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(router.state.location.search).toBe('?view=page');
  });
});
