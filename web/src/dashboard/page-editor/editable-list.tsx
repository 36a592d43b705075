/**
 * One list of the document in the editor (skills, links, projects, jobs, schools, awards): the
 * list's own problem, each item in a titled group with its fields and its Up, Down and Remove
 * buttons, and a button that adds an item and focuses its first field.
 */
import type { ReactNode } from 'react';
import type { ContentDocument } from '../../content/document';
import { fieldId, Group } from './fields';
import { ListControls, moveItem } from './list-controls';
import { focusLater, ListProblem, type Edit } from './list-form-parts';
import type { Problems } from './validate';

export function EditableList<T>({
  path,
  items,
  of,
  problems,
  edit,
  level = 3,
  className = 'space-y-4',
  title,
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
  of: (draft: ContentDocument) => T[];
  problems: Problems;
  edit: Edit;
  /** The heading level of each item's group. */
  level?: 3 | 4;
  className?: string;
  /** Each item's heading, e.g. `Skill 1: React`. */
  title: (item: T, i: number) => string;
  /** The item in words for its buttons, e.g. `skill React`. */
  name: (item: T, i: number) => string;
  /** The item's fields; `itemPath` is e.g. `skills[0]`. */
  fields: (item: T, i: number, itemPath: string) => ReactNode;
  /** The add button's text. */
  add: ReactNode;
  /** A new item, made in the draft (which it may change, e.g. to bundle a logo). */
  create: (draft: ContentDocument) => T;
  /** The field focused in a new item, e.g. `name`. */
  firstField: string;
  /** Runs in the draft after an item is removed (dropping media nothing uses any more). */
  afterRemove?: (draft: ContentDocument) => void;
}) {
  return (
    <>
      <ListProblem path={path} problems={problems} />
      <ol className={className}>
        {items.map((item, i) => (
          <li key={i}>
            <Group level={level} id={fieldId(`${path}[${i}]`)} title={title(item, i)}>
              {fields(item, i, `${path}[${i}]`)}
              <ListControls
                listPath={path}
                index={i}
                count={items.length}
                name={name(item, i)}
                onMove={(to) => edit((d) => moveItem(of(d), i, to))}
                onRemove={() =>
                  edit((d) => {
                    of(d).splice(i, 1);
                    afterRemove?.(d);
                  })
                }
              />
            </Group>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => void of(d).push(create(d)));
          focusLater(`${path}[${items.length}].${firstField}`);
        }}
      >
        {add}
      </button>
    </>
  );
}
