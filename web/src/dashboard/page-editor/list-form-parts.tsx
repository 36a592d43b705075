/** What the list forms share: their props, fresh ids, focus for a new item, a list's own problem. */
import type { ContentDocument } from '../../content/document';
import { fieldId } from '../shared/draft/fields';
import type { Problems } from './validate';

export type Edit = (change: (draft: ContentDocument) => void) => void;
export interface ListFormProps {
  document: ContentDocument;
  problems: Problems;
  edit: Edit;
}

/** An id not yet taken in `taken`, from `stem`: `project-2`, `project-3` … */
export function freshId(stem: string, taken: string[]): string {
  for (let n = taken.length + 1; ; n += 1) if (!taken.includes(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** Focuses the first field of a just-added item once it is drawn. */
export function focusLater(path: string) {
  requestAnimationFrame(() => document.getElementById(fieldId(path))?.focus());
}

export function ListProblem({ path, problems }: { path: string; problems: Problems }) {
  return problems[path] ? <p className="field-error">{problems[path]}</p> : null;
}
