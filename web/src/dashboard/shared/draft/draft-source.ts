/**
 * What the draft hooks (`use-draft-of.ts`) need of an entry of the content store: how its draft is
 * loaded and saved (with `If-Match`), how it is checked, and where its unsaved edits are kept. The
 * page's document is one such entry, each project's case study another, each post another; all
 * are edited through the same hooks.
 */

/** Problems by the server's path (`projects[2].title`), in the server's words. */
export type Problems = Record<string, string>;

/** A draft as the server answers it: its revision, its document, and its ETag (the next save's `If-Match`). */
export interface DraftOf<T> {
  revision: number;
  document: T;
  etag: string;
}

export interface DraftSource<T> {
  load: (signal?: AbortSignal) => Promise<DraftOf<T>>;
  /** Saves from the revision `etag`; a 409 `ApiError` when it was saved elsewhere since. */
  save: (document: T, etag: string) => Promise<DraftOf<T>>;
  /** Every problem, by the server's path; empty when the server would take it. */
  problemsOf: (document: T) => Problems;
  /** Runs before an edit of `draft`, and answers what runs after it (keeping translations on their items). */
  follow?: (draft: T) => () => void;
  /** Where unsaved edits are kept across a reload (localStorage). */
  unsavedKey: string;
}
