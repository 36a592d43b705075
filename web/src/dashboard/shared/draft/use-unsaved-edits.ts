/**
 * Edits not yet saved, kept in localStorage keyed to the ETag they started from, so a reload (or
 * a server that was away) brings them back: restored at once when the draft is still the one they
 * started from, offered when it changed since. Leaving the page with them asks first.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DraftOf } from './draft-source';
import { same, type DraftCopy } from './use-draft-copy';

/** Where the page's unsaved edits are kept (a case study's have a key of their own). */
export const UNSAVED_KEY = 'portfolio:page-editor:unsaved';

interface Unsaved<T> {
  etag: string;
  document: T;
}

/** What the owner is told about edits found from before a reload, until they choose. */
export type Recovery<T> =
  /** Edits made from the draft as it still is. */
  | { kind: 'restored' }
  /** Edits made from an older draft. */
  | { kind: 'offered'; unsaved: Unsaved<T> };

function readUnsaved<T>(key: string): Unsaved<T> | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Unsaved<T>) : null;
  } catch {
    return null;
  }
}

export function useUnsavedEdits<T>({ base, document, setDocument, etag, dirty }: DraftCopy<T>, key: string) {
  const [recovery, setRecovery] = useState<Recovery<T> | null>(null);

  /**
   * After a draft was taken from the server: on the first load, brings back edits kept from
   * before a reload; on a reload, forgets them.
   */
  const recover = useCallback(
    (answer: DraftOf<T>, first: boolean) => {
      const unsaved = first ? readUnsaved<T>(key) : null;
      if (unsaved && !same(unsaved.document, answer.document)) {
        if (unsaved.etag === answer.etag) {
          setDocument(unsaved.document);
          setRecovery({ kind: 'restored' });
        } else {
          setRecovery({ kind: 'offered', unsaved });
        }
      } else if (!first) {
        localStorage.removeItem(key);
        setRecovery(null);
      }
    },
    [setDocument, key],
  );

  // Keep unsaved edits across a reload, and warn before leaving with them.
  const offered = recovery?.kind === 'offered';
  useEffect(() => {
    if (!document || !etag || offered) return;
    if (dirty) localStorage.setItem(key, JSON.stringify({ etag, document } satisfies Unsaved<T>));
    else localStorage.removeItem(key);
  }, [document, etag, dirty, offered, key]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const keepRestored = useCallback(() => setRecovery(null), []);
  const restoreOffered = useCallback(() => {
    if (recovery?.kind !== 'offered') return;
    setDocument(recovery.unsaved.document);
    setRecovery(null);
  }, [recovery, setDocument]);
  const discardUnsaved = useCallback(() => {
    localStorage.removeItem(key);
    setRecovery(null);
    setDocument(base);
  }, [base, setDocument, key]);

  return { recovery, recover, keepRestored, restoreOffered, discardUnsaved };
}
