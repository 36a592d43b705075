/**
 * Edits not yet saved, kept in localStorage keyed to the ETag they started from, so a reload (or
 * a server that was away) brings them back: restored at once when the draft is still the one they
 * started from, offered when it changed since. Leaving the page with them asks first.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ContentDocument } from '../../content/document';
import type { DraftAnswer } from '../../api/content';
import { same, type DraftCopy } from './use-draft-copy';

export const UNSAVED_KEY = 'portfolio:page-editor:unsaved';

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

function readUnsaved(): Unsaved | null {
  try {
    const raw = localStorage.getItem(UNSAVED_KEY);
    return raw ? (JSON.parse(raw) as Unsaved) : null;
  } catch {
    return null;
  }
}

export function useUnsavedEdits({ base, document, setDocument, etag, dirty }: DraftCopy) {
  const [recovery, setRecovery] = useState<Recovery | null>(null);

  /**
   * After a draft was taken from the server: on the first load, brings back edits kept from
   * before a reload; on a reload, forgets them.
   */
  const recover = useCallback(
    (answer: DraftAnswer, first: boolean) => {
      const unsaved = first ? readUnsaved() : null;
      if (unsaved && !same(unsaved.document, answer.document)) {
        if (unsaved.etag === answer.etag) {
          setDocument(unsaved.document);
          setRecovery({ kind: 'restored' });
        } else {
          setRecovery({ kind: 'offered', unsaved });
        }
      } else if (!first) {
        localStorage.removeItem(UNSAVED_KEY);
        setRecovery(null);
      }
    },
    [setDocument],
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

  const keepRestored = useCallback(() => setRecovery(null), []);
  const restoreOffered = useCallback(() => {
    if (recovery?.kind !== 'offered') return;
    setDocument(recovery.unsaved.document);
    setRecovery(null);
  }, [recovery, setDocument]);
  const discardUnsaved = useCallback(() => {
    localStorage.removeItem(UNSAVED_KEY);
    setRecovery(null);
    setDocument(base);
  }, [base, setDocument]);

  return { recovery, recover, keepRestored, restoreOffered, discardUnsaved };
}
