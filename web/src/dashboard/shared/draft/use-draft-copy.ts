/**
 * The draft as it is edited here: the document, the draft it started from on the server (`base`,
 * its ETag and revision), and its problems (the schema's, and those the server named at the last
 * save, shown once a save was tried).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DraftOf, DraftSource, Problems } from './draft-source';

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function useDraftCopy<T>({ problemsOf, follow: followOf }: DraftSource<T>) {
  const [base, setBase] = useState<T | null>(null);
  const [document, setDocument] = useState<T | null>(null);
  const [etag, setEtag] = useState('');
  const [revision, setRevision] = useState(0);
  const [showProblems, setShowProblems] = useState(false);
  const [serverProblems, setServerProblems] = useState<Problems>({});
  // The latest edits, for a save that answers after more were made.
  const latest = useRef<T | null>(null);
  useEffect(() => {
    latest.current = document;
  }, [document]);
  // The draft on the server as last heard, set the moment an answer comes, before any render: a
  // save started before that render (Publish's, right after an autosave) must not send the old ETag.
  const server = useRef<{ base: T | null; etag: string }>({ base: null, etag: '' });
  const onServer = useCallback(() => server.current, []);

  /** Takes a draft from the server as it is, dropping the edits here. */
  const adopt = useCallback((answer: DraftOf<T>) => {
    server.current = { base: answer.document, etag: answer.etag };
    setBase(answer.document);
    setDocument(answer.document);
    setEtag(answer.etag);
    setRevision(answer.revision);
    setServerProblems({});
    setShowProblems(false);
  }, []);

  /** Takes the newer draft as the base, with these edits over it (saved next). */
  const rebase = useCallback((theirs: DraftOf<T>, document: T) => {
    server.current = { base: theirs.document, etag: theirs.etag };
    setBase(theirs.document);
    setEtag(theirs.etag);
    setRevision(theirs.revision);
    setDocument(document);
  }, []);

  /** The server's answer to a save of `sent`: edits made while it was on its way stay, and are saved next. */
  const saved = useCallback((answer: DraftOf<T>, sent: T) => {
    server.current = { base: answer.document, etag: answer.etag };
    setBase(answer.document);
    setDocument((current) => (current === sent ? answer.document : current));
    setEtag(answer.etag);
    setRevision(answer.revision);
    setShowProblems(false);
  }, []);

  const edit = useCallback(
    (change: (draft: T) => void) => {
      setDocument((current) => {
        if (!current) return current;
        const next = structuredClone(current);
        const follow = followOf?.(next);
        change(next);
        follow?.();
        return next;
      });
      setServerProblems({});
    },
    [followOf],
  );

  const dirty = useMemo(() => document !== null && base !== null && !same(document, base), [document, base]);
  const problems = useMemo<Problems>(
    () => (showProblems && document ? { ...serverProblems, ...problemsOf(document) } : {}),
    [showProblems, document, serverProblems, problemsOf],
  );

  return {
    base,
    document,
    setDocument,
    latest,
    /** The draft on the server (`base`) and its ETag, as last heard, whether rendered yet or not. */
    onServer,
    etag,
    revision,
    dirty,
    problems,
    showProblems,
    setShowProblems,
    serverProblems,
    setServerProblems,
    adopt,
    rebase,
    saved,
    edit,
  };
}

export type DraftCopy<T> = ReturnType<typeof useDraftCopy<T>>;
