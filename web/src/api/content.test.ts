import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './client';
import { loadDraft, previewAvailable, saveDraft, uploadProblem } from './content';
import type { ContentDocument } from '../content/document';

afterEach(() => vi.unstubAllGlobals());

describe('the content calls', () => {
  it('reads the draft with its ETag and saves it back with If-Match', async () => {
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ revision: 3, document: {} }), { status: 200, headers: { ETag: '"3"' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const draft = await loadDraft();
    expect(draft).toEqual({ revision: 3, document: {}, etag: '"3"' });
    await saveDraft({} as ContentDocument, draft.etag);
    expect(fetch).toHaveBeenLastCalledWith(
      '/api/content/draft',
      expect.objectContaining({ method: 'PUT', headers: expect.objectContaining({ 'If-Match': '"3"' }) }),
    );
  });

  it('falls back to the revision when the answer has no ETag', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ revision: 5, document: {} }))));
    expect((await loadDraft()).etag).toBe('"5"');
  });

  it('turns a stale save into the server’s own error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: { code: 'conflict', message: 'Saved elsewhere.' } }), { status: 409 })),
    );
    const error = (await saveDraft({} as ContentDocument, '"1"').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.message]).toEqual([409, 'Saved elsewhere.']);
  });

  it('says whether the preview answers, never throwing', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 404 })));
    await expect(previewAvailable()).resolves.toBe(false);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(previewAvailable()).resolves.toBe(false);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<!doctype html>', { status: 200 })));
    await expect(previewAvailable()).resolves.toBe(true);
  });

  it('words an upload’s failure for the owner', () => {
    expect(uploadProblem(new ApiError(413, 'payload_too_large', 'x'), 'image')).toMatch(/too large/);
    expect(uploadProblem(new ApiError(422, 'validation_failed', 'x', { file: 'bad' }), 'PDF')).toMatch(/not a PDF/);
    expect(uploadProblem(new ApiError(0, 'network_error', 'We could not reach the server.'), 'PDF')).toBe('We could not reach the server.');
  });
});
