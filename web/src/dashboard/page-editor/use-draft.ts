/**
 * The draft being edited, composed of one hook per concern: the copy edited here
 * (`use-draft-copy.ts`), kept in step with the server (`use-draft-sync.ts`: loaded, saved as the
 * owner types), merged with a draft saved elsewhere since (`use-draft-merge.ts`), and its unsaved
 * edits kept across a reload (`use-unsaved-edits.ts`).
 */
import { useCallback } from 'react';
import type { ContentDocument } from '../../content/document';
import { useDraftCopy } from './use-draft-copy';
import { useDraftMerge } from './use-draft-merge';
import { useDraftSync } from './use-draft-sync';
import { useUnsavedEdits } from './use-unsaved-edits';

export function useDraft() {
  const copy = useDraftCopy();
  const merge = useDraftMerge(copy);
  const unsaved = useUnsavedEdits(copy);
  const sync = useDraftSync(copy, merge, unsaved.recover, unsaved.recovery !== null || merge.conflict !== null);

  const { edit: editCopy } = copy;
  const { setMerged } = merge;
  const edit = useCallback(
    (change: (draft: ContentDocument) => void) => {
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

export type DraftState = ReturnType<typeof useDraft>;
