import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { redirectSignedIn, requireOwner } from './guards';
import { maybeSignedIn } from './hint';

function args(path: string): LoaderFunctionArgs {
  return { request: new Request(`http://localhost${path}`), params: {}, context: undefined } as LoaderFunctionArgs;
}

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function setHint(present: boolean) {
  document.cookie = present ? 'portfolio_signed_in=1; Path=/' : 'portfolio_signed_in=; Path=/; Max-Age=0';
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  const result = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(result).toBeInstanceOf(Response);
  return result as Response;
}

describe('the route guards', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));
  afterEach(() => {
    vi.unstubAllGlobals();
    setHint(false);
  });

  it('send a visitor from /dashboard to /login without asking the server', async () => {
    const fetch = answer(200, { email: 'owner@example.com' });
    const response = await thrown(requireOwner(args('/dashboard')));
    expect(response.headers.get('Location')).toBe('/login');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('replace the history entry when /dashboard was opened directly', async () => {
    window.history.replaceState(null, '', '/dashboard');
    answer(200, {});
    const response = await thrown(requireOwner(args('/dashboard')));
    expect(response.headers.get('X-Remix-Replace')).toBe('true');
  });

  it('push only the target when /dashboard was reached by a link', async () => {
    const response = await thrown(requireOwner(args('/dashboard')));
    expect(response.headers.get('X-Remix-Replace')).toBeNull();
  });

  it('let the owner in when the server knows the session', async () => {
    setHint(true);
    answer(200, { email: 'owner@example.com' });
    await expect(requireOwner(args('/dashboard'))).resolves.toEqual({ email: 'owner@example.com' });
  });

  it('drop a stale hint when the server says the session is gone', async () => {
    setHint(true);
    answer(401, { error: { code: 'unauthorized', message: 'sign in to continue' } });
    const response = await thrown(requireOwner(args('/dashboard')));
    expect(response.headers.get('Location')).toBe('/login');
    expect(maybeSignedIn()).toBe(false);
  });

  it('send a signed-in owner from /login to /dashboard', async () => {
    setHint(true);
    answer(200, { email: 'owner@example.com' });
    const response = await thrown(redirectSignedIn(args('/login')));
    expect(response.headers.get('Location')).toBe('/dashboard');
  });

  it('show /login to a visitor', async () => {
    const fetch = answer(200, {});
    await expect(redirectSignedIn(args('/login'))).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
