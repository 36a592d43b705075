/**
 * The page's document as a draft: the draft hooks (`use-draft-of.ts`) with the page's source, its
 * load and save, its schema's validator and its translations kept on their items.
 */
import type { ContentDocument } from '../../content/document';
import { loadDraft, saveDraft } from '../../api/content';
import type { DraftSource } from '../shared/draft/draft-source';
import { followItems } from './translations';
import { useDraftOf, type DraftStateOf } from '../shared/draft/use-draft-of';
import { UNSAVED_KEY } from '../shared/draft/use-unsaved-edits';
import { problemsOf } from './validate';

export { useDraftOf, type DraftStateOf } from '../shared/draft/use-draft-of';

/** The page's document as a draft. */
const PAGE: DraftSource<ContentDocument> = { load: loadDraft, save: saveDraft, problemsOf, follow: followItems, unsavedKey: UNSAVED_KEY };

/** The page's draft. */
export function useDraft() {
  return useDraftOf(PAGE);
}

export type DraftState = DraftStateOf<ContentDocument>;
