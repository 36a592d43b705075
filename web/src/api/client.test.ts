import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, request, serverNow, sessionListeners } from './client';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status, headers })),
  );
}

describe('api', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns the parsed JSON of a successful answer', async () => {
    answer(200, { ok: true });
    await expect(api('/api/thing')).resolves.toEqual({ ok: true });
  });

  it('turns an error body into an ApiError with its fields', async () => {
    answer(422, { error: { code: 'validation_failed', message: 'email: is required', fields: { email: 'is required' } } });
    const error = await api('/api/contact', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fields).toEqual({ email: 'is required' });
  });

  it('reads Retry-After from a 429', async () => {
    answer(429, { error: { code: 'too_many_requests', message: 'Slow down.' } }, { 'Retry-After': '30' });
    const error = (await api('/api/contact').catch((e: unknown) => e)) as ApiError;
    expect(error.retryAfter).toBe(30);
  });

  it('gives a readable message when the server is unreachable', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const error = (await api('/api/contact').catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('network_error');
    expect(error.message).toMatch(/could not reach the server/);
  });

  it('gives a readable message for a 500 without a body', async () => {
    answer(500, undefined);
    const error = (await api('/api/contact').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/went wrong on our side/);
  });

  it('returns the answer itself from request, sending raw bytes and extra headers as given', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200, headers: { ETag: '"7"' } }));
    vi.stubGlobal('fetch', fetch);
    const bytes = new Blob(['%PDF-1.7']);
    const response = await request('/api/media/resume', { method: 'POST', raw: bytes, headers: { 'If-Match': '"6"' } });
    expect(response.headers.get('ETag')).toBe('"7"');
    expect(fetch).toHaveBeenCalledWith('/api/media/resume', {
      method: 'POST',
      headers: { Accept: 'application/json', 'If-Match': '"6"' },
      body: bytes,
      credentials: 'same-origin',
      signal: undefined,
    });
  });

  it('throws the same ApiError from request as from api', async () => {
    answer(409, { error: { code: 'conflict', message: 'The draft was saved elsewhere.' } });
    const error = (await request('/api/content/draft', { method: 'PUT', body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('The draft was saved elsewhere.');
  });
});

describe('sessionListeners', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is told once when an answer finds the session gone, and the caller still gets the ApiError', async () => {
    const ended = vi.fn();
    sessionListeners.add(ended);
    answer(401, { error: { code: 'unauthorized', message: 'sign in to continue' } });
    const error = await api('/api/messages').catch((e: unknown) => e);
    sessionListeners.delete(ended);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
  });

  it('is not told of a refused password, code or passkey (401s of their own), nor of any other error', async () => {
    const ended = vi.fn();
    sessionListeners.add(ended);
    for (const code of ['invalid_credentials', 'sign_in_expired', 'passkey_refused']) {
      answer(401, { error: { code, message: 'Refused.' } });
      await api('/api/session', { method: 'POST', body: {} }).catch(() => {});
    }
    answer(403, { error: { code: 'forbidden', message: 'Not from the site.' } });
    await api('/api/messages').catch(() => {});
    sessionListeners.delete(ended);
    expect(ended).not.toHaveBeenCalled();
  });
});

describe('serverNow', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("follows the server's clock as its answers' Date headers tell, and this device's while they agree within two seconds", async () => {
    answer(200, {}, { Date: new Date(Date.now() + 5 * 60_000).toUTCString() });
    await api('/api/content/posts');
    expect(serverNow() - Date.now()).toBeGreaterThan(5 * 60_000 - 1_500);
    expect(serverNow() - Date.now()).toBeLessThan(5 * 60_000 + 1_500);

    answer(404, { error: { code: 'not_found', message: 'Not found.' } }, { Date: new Date(Date.now() - 3 * 60_000).toUTCString() });
    await api('/api/content/posts/x').catch(() => undefined);
    expect(Math.abs(serverNow() - Date.now() + 3 * 60_000)).toBeLessThan(1_500);

    answer(200, {}, { Date: new Date(Date.now() + 500).toUTCString() });
    await api('/api/content/posts');
    // 0 ahead: the two clock reads apart by what a loaded machine takes between them.
    const ahead = serverNow() - Date.now();
    expect(Math.abs(ahead)).toBeLessThan(100);

    answer(200, {}, {});
    await api('/api/content/posts');
    expect(Math.abs(serverNow() - Date.now())).toBeLessThan(100);
  });
});
