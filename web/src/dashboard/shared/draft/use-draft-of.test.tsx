/**
 * The draft's saves against the server's ETag: a save started before React has rendered the last
 * save's answer (Publish saves at once, and an autosave may have just answered) must send the
 * ETag that answer gave, not the one the render still holds, or the server refuses it as a
 * conflict and nothing is published.
 */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import type { DraftOf, DraftSource } from './draft-source';
import { useDraftOf } from './use-draft-of';

interface Doc {
  name: string;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** A server's draft in memory: each save must name the current ETag (`If-Match`), as ours does. */
function serverDraft() {
  let current: DraftOf<Doc> = { revision: 1, document: { name: 'First' }, etag: '"1"' };
  const save = vi.fn(async (document: Doc, etag: string) => {
    if (etag !== current.etag) throw new Error(`409: saved with ${etag}, the draft is ${current.etag}`);
    const revision = current.revision + 1;
    current = { revision, document: structuredClone(document), etag: `"${revision}"` };
    return current;
  });
  const source: DraftSource<Doc> = {
    load: async () => current,
    save,
    problemsOf: () => ({}),
    unsavedKey: 'test-draft',
  };
  return { source, save };
}

test('a save from a render before the last save answered sends nothing stale', async () => {
  const { source, save } = serverDraft();
  const { result } = renderHook(() => useDraftOf(source));
  await waitFor(() => expect(result.current.document).toEqual({ name: 'First' }));

  act(() => result.current.edit((draft) => void (draft.name = 'Second')));
  // The save as this render holds it: what Publish's call may still reach after an autosave's answer.
  const heldSave = result.current.save;
  await act(async () => expect(await result.current.save()).toBe('saved'));
  expect(save).toHaveBeenCalledTimes(1);

  await act(async () => expect(await heldSave()).toBe('saved'));
  // Nothing is left to save: no second request, and none with the first ETag.
  expect(save).toHaveBeenCalledTimes(1);
  expect(result.current.etag).toBe('"2"');
  expect(result.current.dirty).toBe(false);
});

test('edits made while a save was on its way are saved next, with the ETag that save answered', async () => {
  const { source, save } = serverDraft();
  const { result } = renderHook(() => useDraftOf(source));
  await waitFor(() => expect(result.current.document).toEqual({ name: 'First' }));

  act(() => result.current.edit((draft) => void (draft.name = 'Second')));
  let first!: Promise<unknown>;
  act(() => {
    first = result.current.save();
  });
  act(() => result.current.edit((draft) => void (draft.name = 'Third')));
  await act(async () => {
    await first;
  });
  await act(async () => expect(await result.current.flush()).toBe(true));
  expect(save.mock.calls.map(([document, etag]) => [document.name, etag])).toEqual([
    ['Second', '"1"'],
    ['Third', '"2"'],
  ]);
});
