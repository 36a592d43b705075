/**
 * The draft being edited: loaded with its ETag, saved with `If-Match`, a stale save (409)
 * reported and never retried over the newer draft. Unsaved edits are kept in localStorage,
 * keyed to the ETag they started from, so a reload brings them back.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { ContentDocument } from '../../content/document';
import { loadDraft, saveDraft, type DraftAnswer } from '../../api/content';
import { problemsOf, type Problems } from './validate';

export const UNSAVED_KEY = 'portfolio:page-editor:unsaved';

interface Unsaved {
  etag: string;
  document: ContentDocument;
}

/** What the owner is told about edits found from before a reload. */
export type Recovery =
  | { kind: 'restored' }
  /** Edits made from an older draft: the owner chooses. */
  | { kind: 'offered'; unsaved: Unsaved };

export type SaveOutcome = 'saved' | 'invalid' | 'conflict' | 'failed';

function readUnsaved(): Unsaved | null {
  try {
    const raw = localStorage.getItem(UNSAVED_KEY);
    return raw ? (JSON.parse(raw) as Unsaved) : null;
  } catch {
    return null;
  }
}

export function useDraft(onUnauthorized: () => void) {
  const [loadError, setLoadError] = useState<string | null>(null);
  const [base, setBase] = useState<ContentDocument | null>(null);
  const [document, setDocument] = useState<ContentDocument | null>(null);
  const [etag, setEtag] = useState('');
  const [revision, setRevision] = useState(0);
  const [recovery, setRecovery] = useState<Recovery | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [serverProblems, setServerProblems] = useState<Problems>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState(0);

  const fail = useCallback(
    (cause: unknown, set: (message: string) => void) => {
      if (cause instanceof ApiError && cause.status === 401) onUnauthorized();
      else set(cause instanceof Error ? cause.message : String(cause));
    },
    [onUnauthorized],
  );

  const adopt = useCallback((answer: { document: ContentDocument; etag: string; revision: number }) => {
    setBase(answer.document);
    setDocument(answer.document);
    setEtag(answer.etag);
    setRevision(answer.revision);
    setServerProblems({});
    setShowProblems(false);
    setConflict(null);
    setSaveError(null);
  }, []);

  /** Takes a draft from the server; on the first load, brings back edits kept from before a reload. */
  const take = useCallback(
    (answer: DraftAnswer, recover: boolean) => {
      adopt(answer);
      setLoadError(null);
      const unsaved = recover ? readUnsaved() : null;
      if (unsaved && JSON.stringify(unsaved.document) !== JSON.stringify(answer.document)) {
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

  const dirty = useMemo(
    () => document !== null && base !== null && JSON.stringify(document) !== JSON.stringify(base),
    [document, base],
  );

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
      change(next);
      return next;
    });
    setServerProblems({});
  }, []);

  const savingRef = useRef(false);
  const save = useCallback(async (): Promise<SaveOutcome> => {
    if (!document || savingRef.current) return 'failed';
    setSaveError(null);
    if (Object.keys(problemsOf(document)).length > 0) {
      setShowProblems(true);
      return 'invalid';
    }
    savingRef.current = true;
    setSaving(true);
    try {
      const answer = await saveDraft(document, etag);
      setBase(answer.document);
      setDocument((current) => (current === document ? answer.document : current));
      setEtag(answer.etag);
      setRevision(answer.revision);
      setShowProblems(false);
      setSavedAt(Date.now());
      return 'saved';
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 409) {
        setConflict(cause.message);
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
      savingRef.current = false;
      setSaving(false);
    }
  }, [document, etag, fail]);

  const restoreOffered = useCallback(() => {
    if (recovery?.kind !== 'offered') return;
    setDocument(recovery.unsaved.document);
    setRecovery({ kind: 'restored' });
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
    serverProblems,
    showProblems,
    conflict,
    saving,
    saveError,
    savedAt,
    recovery,
    edit,
    save,
    /** Loads the draft as saved on the server, dropping the edits here. */
    reload,
    restoreOffered,
    discardUnsaved,
    dismissRecovery: () => setRecovery(null),
  };
}

export type DraftState = ReturnType<typeof useDraft>;
