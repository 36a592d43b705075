/**
 * A draft being edited, composed of one hook per concern: the copy edited here
 * (`use-draft-copy.ts`), kept in step with the server (`use-draft-sync.ts`: loaded, saved as the
 * owner types), merged with a draft saved elsewhere since (`use-draft-merge.ts`), and its unsaved
 * edits kept across a reload (`use-unsaved-edits.ts`). The page's document is one draft
 * (`useDraft`); a case study is another (`useDraftOf` with its own source).
 */
import { useCallback } from 'react';
import type { ContentDocument } from '../../content/document';
import { loadDraft, saveDraft } from '../../api/content';
import type { DraftSource } from './draft-source';
import { followItems } from './translations';
import { useDraftCopy } from './use-draft-copy';
import { useDraftMerge } from './use-draft-merge';
import { useDraftSync } from './use-draft-sync';
import { UNSAVED_KEY, useUnsavedEdits } from './use-unsaved-edits';
import { problemsOf } from './validate';

/** The page's document as a draft. */
const PAGE: DraftSource<ContentDocument> = { load: loadDraft, save: saveDraft, problemsOf, follow: followItems, unsavedKey: UNSAVED_KEY };

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

/** The page's draft. */
export function useDraft() {
  return useDraftOf(PAGE);
}

export type DraftStateOf<T> = ReturnType<typeof useDraftOf<T>>;
export type DraftState = DraftStateOf<ContentDocument>;
