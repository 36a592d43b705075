/**
 * The draft kept in step with the server: loaded when the editor opens, saved as the owner types
 * (a second after the last edit, with `If-Match`, so a save never overwrites a draft saved
 * elsewhere since; such a save merges, `use-draft-merge.ts`), tried again a while after a failed
 * save, and saved at once on asking (Ctrl+S, Publish).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client';
import { sessionEnded } from '../session';
import type { DraftOf, DraftSource } from './draft-source';
import { same, type DraftCopy } from './use-draft-copy';
import type { DraftMerge } from './use-draft-merge';

/** How long after the last edit the draft is saved. */
export const AUTOSAVE_MS = 1000;
/** How long after a failed save (the server away) it is tried again. */
const RETRY_MS = 5000;

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed';

export function useDraftSync<T>(
  { load: loadDraft, save: saveDraft, problemsOf }: DraftSource<T>,
  copy: DraftCopy<T>,
  merge: DraftMerge<T>,
  /** What else happens when a draft is taken from the server (`first`: the editor just opened). */
  recover: (answer: DraftOf<T>, first: boolean) => void,
  /** The owner has a choice to make (edits found from before a reload, or a conflict): no autosave. */
  waiting: boolean,
) {
  const { document, onServer, dirty, problems, showProblems, setShowProblems, serverProblems, setServerProblems, adopt, saved } = copy;
  const { meet, forget } = merge;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState(0);

  // A session found gone is the dashboard shell's to handle; any other failure is said here.
  const fail = useCallback((cause: unknown, set: (message: string) => void) => {
    if (!sessionEnded(cause)) set(cause instanceof Error ? cause.message : String(cause));
  }, []);

  /** Takes a draft from the server, dropping what was under way here. */
  const take = useCallback(
    (answer: DraftOf<T>, first: boolean) => {
      adopt(answer);
      forget();
      setSaveError(null);
      setLoadError(null);
      recover(answer, first);
    },
    [adopt, forget, recover],
  );

  useEffect(() => {
    const controller = new AbortController();
    loadDraft(controller.signal).then(
      (answer) => take(answer, true),
      (cause: unknown) => {
        if (!controller.signal.aborted) fail(cause, setLoadError);
      },
    );
    return () => controller.abort();
  }, [take, fail, loadDraft]);

  const reload = useCallback(
    () =>
      loadDraft().then(
        (answer) => take(answer, false),
        (cause: unknown) => fail(cause, setLoadError),
      ),
    [take, fail, loadDraft],
  );

  const saveNow = useCallback(async (): Promise<SaveOutcome> => {
    // The server's side as last heard, though this render may not have seen its latest answer.
    const { base, etag } = onServer();
    if (!document || !base) return 'failed';
    if (same(document, base)) return 'saved';
    setSaveError(null);
    // The server's problems (a case study's Markdown, say) stand until the next edit: not sent again till then.
    if (Object.keys(problemsOf(document)).length > 0 || Object.keys(serverProblems).length > 0) {
      setShowProblems(true);
      return 'invalid';
    }
    setSaving(true);
    try {
      saved(await saveDraft(document, etag), document);
      setSavedAt(Date.now());
      return 'saved';
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        try {
          await meet(base);
        } catch (again) {
          fail(again, setSaveError);
          return 'failed';
        }
        return 'conflict';
      }
      if (cause instanceof ApiError && cause.status === 422 && Object.keys(cause.fields).length > 0) {
        setServerProblems(cause.fields);
        setShowProblems(true);
        return 'invalid';
      }
      fail(cause, setSaveError);
      return 'failed';
    } finally {
      setSaving(false);
    }
  }, [document, onServer, fail, meet, saved, setShowProblems, serverProblems, setServerProblems, problemsOf, saveDraft]);

  // One save at a time: a second call while one is on its way gets that one.
  const inFlight = useRef<Promise<SaveOutcome> | null>(null);
  const save = useCallback((): Promise<SaveOutcome> => {
    if (inFlight.current) return inFlight.current;
    const saving = saveNow().finally(() => {
      inFlight.current = null;
    });
    inFlight.current = saving;
    return saving;
  }, [saveNow]);

  // Autosave: a second after the last edit; paused while the owner has a choice to make.
  const invalidShown = showProblems && Object.keys(problems).length > 0;
  useEffect(() => {
    if (!dirty || saving || waiting) return;
    const timer = setTimeout(() => void save(), saveError ? RETRY_MS : AUTOSAVE_MS);
    return () => clearTimeout(timer);
    // A failed save is tried again after a while, each failure setting `saveError` anew.
  }, [dirty, saving, waiting, save, saveError, invalidShown]);

  /**
   * Saves now (Ctrl+S, Publish): after a save on its way, the edits made since; true when nothing
   * is left unsaved.
   */
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  }, [save]);
  const flush = useCallback(async (): Promise<boolean> => {
    while (inFlight.current) await inFlight.current;
    // Most often a render after the save's answer: the save of the latest edits. Should that render
    // come later (a loaded machine), the save still sends the ETag the answer gave (`onServer`).
    await new Promise((resolve) => setTimeout(resolve, 0));
    return (await latestSave.current()) === 'saved';
  }, []);

  return { loadError, reload, saving, saveError, savedAt, save, flush };
}
