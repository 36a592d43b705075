/**
 * The draft being edited, saved to the server as the owner types: a second after the last edit,
 * with `If-Match`, so a save never overwrites a draft saved elsewhere since. Such a save (409)
 * merges: the newer draft is loaded, and every change made on one side only is kept (`merge.ts`);
 * the places changed on both sides are named, and the owner picks a side for them. Edits not yet
 * saved are also kept in localStorage, keyed to the ETag they started from, so a reload (or a
 * server that was away) brings them back.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { sessionEnded } from '../shared/session';
import type { ContentDocument } from '../../content/document';
import { loadDraft, saveDraft, type DraftAnswer } from '../../api/content';
import { merge3 } from './merge';
import { problemsOf, type Problems } from './validate';
import { followItems } from './translations';

export const UNSAVED_KEY = 'portfolio:page-editor:unsaved';
/** How long after the last edit the draft is saved. */
export const AUTOSAVE_MS = 1000;
/** How long after a failed save (the server away) it is tried again. */
const RETRY_MS = 5000;

interface Unsaved {
  etag: string;
  document: ContentDocument;
}

/** What the owner is told about edits found from before a reload, until they choose. */
export type Recovery =
  /** Edits made from the draft as it still is. */
  | { kind: 'restored' }
  /** Edits made from an older draft. */
  | { kind: 'offered'; unsaved: Unsaved };

/** Both sides changed the same places: the newer draft, and the places. */
export interface Conflict {
  theirs: DraftAnswer;
  clashes: string[];
}

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed';

function readUnsaved(): Unsaved | null {
  try {
    const raw = localStorage.getItem(UNSAVED_KEY);
    return raw ? (JSON.parse(raw) as Unsaved) : null;
  } catch {
    return null;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function useDraft() {
  const [loadError, setLoadError] = useState<string | null>(null);
  const [base, setBase] = useState<ContentDocument | null>(null);
  const [document, setDocument] = useState<ContentDocument | null>(null);
  const [etag, setEtag] = useState('');
  const [revision, setRevision] = useState(0);
  const [recovery, setRecovery] = useState<Recovery | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [serverProblems, setServerProblems] = useState<Problems>({});
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [merged, setMerged] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState(0);
  // The latest edits, for a save that answers after more were made.
  const latest = useRef<ContentDocument | null>(null);
  useEffect(() => {
    latest.current = document;
  }, [document]);

  const fail = useCallback((cause: unknown, set: (message: string) => void) => {
    if (!sessionEnded(cause)) set(cause instanceof Error ? cause.message : String(cause));
  }, []);

  const adopt = useCallback((answer: DraftAnswer) => {
    setBase(answer.document);
    setDocument(answer.document);
    setEtag(answer.etag);
    setRevision(answer.revision);
    setServerProblems({});
    setShowProblems(false);
    setConflict(null);
    setMerged(false);
    setSaveError(null);
  }, []);

  /** Takes a draft from the server; on the first load, brings back edits kept from before a reload. */
  const take = useCallback(
    (answer: DraftAnswer, recover: boolean) => {
      adopt(answer);
      setLoadError(null);
      const unsaved = recover ? readUnsaved() : null;
      if (unsaved && !same(unsaved.document, answer.document)) {
        if (unsaved.etag === answer.etag) {
          setDocument(unsaved.document);
          setRecovery({ kind: 'restored' });
        } else {
          setRecovery({ kind: 'offered', unsaved });
        }
      } else if (!recover) {
        localStorage.removeItem(UNSAVED_KEY);
        setRecovery(null);
      }
    },
    [adopt],
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
  }, [take, fail]);

  const reload = useCallback(
    () =>
      loadDraft().then(
        (answer) => take(answer, false),
        (cause: unknown) => fail(cause, setLoadError),
      ),
    [take, fail],
  );

  const dirty = useMemo(() => document !== null && base !== null && !same(document, base), [document, base]);

  // Keep unsaved edits across a reload, and warn before leaving with them.
  const offered = recovery?.kind === 'offered';
  useEffect(() => {
    if (!document || !etag || offered) return;
    if (dirty) localStorage.setItem(UNSAVED_KEY, JSON.stringify({ etag, document } satisfies Unsaved));
    else localStorage.removeItem(UNSAVED_KEY);
  }, [document, etag, dirty, offered]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const problems = useMemo<Problems>(
    () => (showProblems && document ? { ...serverProblems, ...problemsOf(document) } : {}),
    [showProblems, document, serverProblems],
  );

  const edit = useCallback((change: (draft: ContentDocument) => void) => {
    setDocument((current) => {
      if (!current) return current;
      const next = structuredClone(current);
      const follow = followItems(next);
      change(next);
      follow();
      return next;
    });
    setServerProblems({});
    setMerged(false);
  }, []);

  /** Takes the newer draft as the base, with these edits over it (saved next). */
  const rebase = useCallback((theirs: DraftAnswer, document: ContentDocument) => {
    setBase(theirs.document);
    setEtag(theirs.etag);
    setRevision(theirs.revision);
    setDocument(document);
    setConflict(null);
  }, []);

  /** After a 409: the newer draft, merged with the edits here when they touch other places. */
  const meet = useCallback(
    async (sentFrom: ContentDocument) => {
      const theirs = await loadDraft();
      const mine = latest.current ?? sentFrom;
      const { document: together, clashes } = merge3(sentFrom, mine, theirs.document);
      if (clashes.length > 0) {
        setConflict({ theirs, clashes });
        return;
      }
      rebase(theirs, together);
      setMerged(true);
    },
    [rebase],
  );

  const saveNow = useCallback(async (): Promise<SaveOutcome> => {
    if (!document || !base) return 'failed';
    if (same(document, base)) return 'saved';
    setSaveError(null);
    if (Object.keys(problemsOf(document)).length > 0) {
      setShowProblems(true);
      return 'invalid';
    }
    setSaving(true);
    try {
      const answer = await saveDraft(document, etag);
      setBase(answer.document);
      // Edits made while it was on its way stay, and are saved next.
      setDocument((current) => (current === document ? answer.document : current));
      setEtag(answer.etag);
      setRevision(answer.revision);
      setShowProblems(false);
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
  }, [document, base, etag, fail, meet]);

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
  const waiting = recovery !== null || conflict !== null;
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
    // A render after the save's answer: the save of the latest edits.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return (await latestSave.current()) === 'saved';
  }, []);

  /** The owner's pick for the places changed on both sides; every other change is kept either way. */
  const resolve = useCallback(
    (prefer: 'mine' | 'theirs') => {
      if (!conflict || !base || !latest.current) return;
      rebase(conflict.theirs, merge3(base, latest.current, conflict.theirs.document, prefer).document);
    },
    [conflict, base, rebase],
  );

  const keepRestored = useCallback(() => setRecovery(null), []);
  const restoreOffered = useCallback(() => {
    if (recovery?.kind !== 'offered') return;
    setDocument(recovery.unsaved.document);
    setRecovery(null);
  }, [recovery]);
  const discardUnsaved = useCallback(() => {
    localStorage.removeItem(UNSAVED_KEY);
    setRecovery(null);
    setDocument(base);
  }, [base]);

  return {
    loadError,
    document,
    etag,
    revision,
    dirty,
    problems,
    showProblems,
    conflict,
    merged,
    saving,
    saveError,
    savedAt,
    recovery,
    edit,
    save,
    flush,
    resolve,
    /** Loads the draft as saved on the server, dropping the edits here. */
    reload,
    keepRestored,
    restoreOffered,
    discardUnsaved,
  };
}

export type DraftState = ReturnType<typeof useDraft>;
