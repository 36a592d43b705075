import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../api/client';
import { endOfSession, sessionEnded, whenSessionEnds } from './session';

describe('a session found gone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is told to the listener by a 401 of any request, until it unsubscribes', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'sign in to continue' } }), { status: 401 })),
    );
    const listener = vi.fn();
    const stop = whenSessionEnds(listener);
    const error = await api('/api/content/draft').catch((e: unknown) => e);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(sessionEnded(error)).toBe(true);
    stop();
    await api('/api/content/draft').catch(() => {});
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('is told by endOfSession when the owner ends this browser\'s session', () => {
    const listener = vi.fn();
    const stop = whenSessionEnds(listener);
    endOfSession();
    stop();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('is not any other error: the parts show those', () => {
    expect(sessionEnded(new ApiError(401, 'invalid_credentials', 'The email or password is incorrect.'))).toBe(false);
    expect(sessionEnded(new ApiError(409, 'conflict', 'The draft was saved elsewhere.'))).toBe(false);
    expect(sessionEnded(new Error('sign in to continue'))).toBe(false);
  });
});
