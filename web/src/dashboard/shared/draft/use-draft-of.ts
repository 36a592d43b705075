/**
 * A draft being edited, composed of one hook per concern: the copy edited here
 * (`use-draft-copy.ts`), kept in step with the server (`use-draft-sync.ts`: loaded, saved as the
 * owner types), merged with a draft saved elsewhere since (`use-draft-merge.ts`), and its unsaved
 * edits kept across a reload (`use-unsaved-edits.ts`). Any entry of the content store is one
 * (its `DraftSource`): the page's document (`page-editor/use-draft.ts`), a case study, a post. A module of its
 * own, so that an editor of another entry does not download the page's validator.
 */
import { useCallback } from 'react';
import type { DraftSource } from './draft-source';
import { useDraftCopy } from './use-draft-copy';
import { useDraftMerge } from './use-draft-merge';
import { useDraftSync } from './use-draft-sync';
import { useUnsavedEdits } from './use-unsaved-edits';

/** The draft of `source`, which must stay the same object while the draft is edited. */
export function useDraftOf<T>(source: DraftSource<T>) {
  const copy = useDraftCopy(source);
  const merge = useDraftMerge(copy, source.load);
  const unsaved = useUnsavedEdits(copy, source.unsavedKey);
  const sync = useDraftSync(source, copy, merge, unsaved.recover, unsaved.recovery !== null || merge.conflict !== null);

  const { edit: editCopy } = copy;
  const { setMerged } = merge;
  const edit = useCallback(
    (change: (draft: T) => void) => {
      editCopy(change);
      setMerged(false);
    },
    [editCopy, setMerged],
  );

  return {
    loadError: sync.loadError,
    document: copy.document,
    etag: copy.etag,
    revision: copy.revision,
    dirty: copy.dirty,
    problems: copy.problems,
    showProblems: copy.showProblems,
    conflict: merge.conflict,
    merged: merge.merged,
    saving: sync.saving,
    saveError: sync.saveError,
    savedAt: sync.savedAt,
    recovery: unsaved.recovery,
    edit,
    save: sync.save,
    flush: sync.flush,
    resolve: merge.resolve,
    /** Loads the draft as saved on the server, dropping the edits here. */
    reload: sync.reload,
    keepRestored: unsaved.keepRestored,
    restoreOffered: unsaved.restoreOffered,
    discardUnsaved: unsaved.discardUnsaved,
  };
}

export type DraftStateOf<T> = ReturnType<typeof useDraftOf<T>>;
