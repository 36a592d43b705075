/**
 * A save refused because the draft was saved elsewhere since (409) merges: the newer draft is
 * loaded, and every change made on one side only is kept (`merge.ts`); the places changed on both
 * sides are named, and the owner picks a side for them.
 */
import { useCallback, useState } from 'react';
import type { DraftOf } from './draft-source';
import { merge3 } from './merge';
import type { DraftCopy } from './use-draft-copy';

/** Both sides changed the same places: the newer draft, and the places. */
export interface Conflict<T> {
  theirs: DraftOf<T>;
  clashes: string[];
}

export function useDraftMerge<T>({ base, latest, rebase: rebaseCopy }: DraftCopy<T>, loadDraft: () => Promise<DraftOf<T>>) {
  const [conflict, setConflict] = useState<Conflict<T> | null>(null);
  // The last save merged with changes made elsewhere; said until the next edit.
  const [merged, setMerged] = useState(false);

  const rebase = useCallback(
    (theirs: DraftOf<T>, document: T) => {
      rebaseCopy(theirs, document);
      setConflict(null);
    },
    [rebaseCopy],
  );

  /** After a 409: the newer draft, merged with the edits here when they touch other places. */
  const meet = useCallback(
    async (sentFrom: T) => {
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
    [latest, rebase, loadDraft],
  );

  /** The owner's pick for the places changed on both sides; every other change is kept either way. */
  const resolve = useCallback(
    (prefer: 'mine' | 'theirs') => {
      if (!conflict || !base || !latest.current) return;
      rebase(conflict.theirs, merge3(base, latest.current, conflict.theirs.document, prefer).document);
    },
    [conflict, base, latest, rebase],
  );

  /** A draft taken from the server as it is: nothing to merge. */
  const forget = useCallback(() => {
    setConflict(null);
    setMerged(false);
  }, []);

  return { conflict, merged, setMerged, meet, resolve, forget };
}

export type DraftMerge<T> = ReturnType<typeof useDraftMerge<T>>;
