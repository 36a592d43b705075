/**
 * One list of the document in the editor (skills, links, projects, jobs, schools, awards; a case
 * study's decisions, figures, pictures and links): the
 * list's own problem, then each item folded to its title, with its drag handle and an icon-only
 * remove button named for the item ("Remove the project Shop"); a title opens the item's fields. An item with a problem is open, and a new item opens with its
 * first field focused.
 */
import { useState, type ReactNode } from 'react';
import { ChevronDown, Trash2 } from 'lucide-react';
import type { ContentDocument } from '../../content/document';
import { fieldId } from '../shared/draft/fields';
import { focusLater, ListProblem } from './list-form-parts';
import { problemsUnder } from './parts';
import { ProblemCount, withProblems } from './problem-count';
import { moveItem, SortableList, useListKeys } from './sortable-list';
import type { Problems } from './validate';

export function EditableList<T, D = ContentDocument>({
  path,
  items,
  of,
  problems,
  edit,
  level = 3,
  grid = false,
  prefix,
  label,
  name,
  fields,
  add,
  create,
  firstField,
  afterRemove,
}: {
  /** The list's path in the document, e.g. `skills` or `experience[0].awards`. */
  path: string;
  items: T[];
  /** The same list in a draft being edited. */
  of: (draft: D) => T[];
  problems: Problems;
  edit: (change: (draft: D) => void) => void;
  /** The heading level of each item's title. */
  level?: 3 | 4;
  /** Two columns from medium widths (short items, such as skills). */
  grid?: boolean;
  /** What each item's heading starts with, for screen readers only, e.g. `Skill 1` (read `Skill 1: React`). */
  prefix: (i: number) => string;
  /** Each item's title as it is shown, e.g. `React` (empty: `untitled`). */
  label: (item: T) => string;
  /** The item in words for its buttons, e.g. `skill React`. */
  name: (item: T, i: number) => string;
  /** The item's fields; `itemPath` is e.g. `skills[0]`. */
  fields: (item: T, i: number, itemPath: string) => ReactNode;
  /** The add button's text; none, the list adds its items another way (a gallery's by uploading). */
  add?: ReactNode;
  /** A new item, made in the draft (which it may change, e.g. to bundle a logo). */
  create?: (draft: D) => T;
  /** The field focused in a new item, e.g. `name`. */
  firstField?: string;
  /** Runs in the draft after an item is removed (dropping media nothing uses any more). */
  afterRemove?: (draft: D) => void;
}) {
  const list = useListKeys(items.length);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const Heading = `h${level}` as 'h3' | 'h4';
  return (
    <>
      <ListProblem path={path} problems={problems} />
      <SortableList
        keys={list.keys}
        name={(i) => name(items[i]!, i)}
        grid={grid}
        className={grid ? 'grid gap-3 md:grid-cols-2' : 'space-y-3'}
        onMove={(from, to) => {
          list.move(from, to);
          edit((d) => moveItem(of(d), from, to));
        }}
      >
        {(i, key, handle) => {
          const item = items[i]!;
          const itemPath = `${path}[${i}]`;
          const id = fieldId(itemPath);
          const count = problemsUnder(problems, itemPath);
          const expanded = open.has(key) || count > 0;
          const shown = label(item);
          return (
            <section aria-labelledby={`${id}-heading`} id={id} tabIndex={-1} className="rounded-lg border border-gray-800 bg-gray-950/40">
              <div className="flex items-center gap-1 p-1">
                {handle}
                <Heading id={`${id}-heading`} className="min-w-0 flex-1 text-base font-semibold text-white">
                  <button
                    type="button"
                    aria-expanded={expanded}
                    aria-controls={`${id}-fields`}
                    aria-label={withProblems(`${prefix(i)}: ${shown || 'untitled'}`, count)}
                    onClick={() => toggle(key)}
                    className="flex min-h-11 w-full items-center gap-2 rounded-lg px-2 py-1 text-left hover:bg-gray-800"
                  >
                    <ChevronDown aria-hidden="true" className={`size-4 shrink-0 transition-transform ${expanded ? '' : '-rotate-90'}`} />
                    <span className="min-w-0 break-words">
                      <span className="sr-only">{prefix(i)}: </span>
                      {shown || <i className="font-normal text-gray-400">untitled</i>}
                    </span>
                    {count > 0 && <ProblemCount count={count} />}
                  </button>
                </Heading>
                <button
                  type="button"
                  className="btn btn-ghost size-11 shrink-0 p-0 text-red-300"
                  aria-label={`Remove the ${name(item, i)}`}
                  onClick={() => {
                    list.remove(i);
                    edit((d) => {
                      of(d).splice(i, 1);
                      afterRemove?.(d);
                    });
                  }}
                >
                  <Trash2 aria-hidden="true" className="size-5" />
                </button>
              </div>
              <div id={`${id}-fields`} hidden={!expanded} className="space-y-4 border-t border-gray-800 p-4">
                {expanded && fields(item, i, itemPath)}
              </div>
            </section>
          );
        }}
      </SortableList>
      {add && create && (
        <button
          type="button"
          className="btn btn-secondary whitespace-normal"
          onClick={() => {
            const key = list.append();
            setOpen((current) => new Set(current).add(key));
            edit((d) => void of(d).push(create(d)));
            focusLater(`${path}[${items.length}].${firstField ?? ''}`);
          }}
        >
          {add}
        </button>
      )}
    </>
  );
}
