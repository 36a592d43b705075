/**
 * A post's tags: each shown with a button that removes it, and a field that adds one (Enter or
 * Add). Each is also a page of the writing index. Added and removed tags are announced; focus
 * stays in the list after a removal.
 */
import { X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { sentence } from '../../api/problems';
import { fieldId } from '../shared/draft/fields';
import type { Problems } from '../shared/draft/draft-source';
import { LIMITS, tagKey } from './post-check';

export function TagsField({ tags, problems, onChange }: { tags: string[]; problems: Problems; onChange: (tags: string[]) => void }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const full = tags.length >= LIMITS.tags;
  const wrong = tags.findIndex((_, i) => problems[`tags[${i}]`]);
  const problem =
    refused ??
    (problems.tags
      ? sentence('tags', problems.tags, 'The tags')
      : wrong >= 0
        ? sentence('tags', problems[`tags[${wrong}]`]!, `The tag “${tags[wrong]}”`)
        : null);

  function add() {
    const tag = text.trim().replace(/\s+/g, ' ');
    if (tag === '') return;
    if (tags.some((other) => tagKey(other) === tagKey(tag))) {
      setRefused(`“${tag}” is already a tag of the post.`);
      return;
    }
    if ([...tag].length > LIMITS.tag) {
      setRefused(`A tag is at most ${LIMITS.tag} characters.`);
      return;
    }
    setRefused(null);
    onChange([...tags, tag]);
    setText('');
    setSaid(`Tag “${tag}” added.`);
  }

  function remove(i: number) {
    const tag = tags[i]!;
    onChange(tags.filter((_, k) => k !== i));
    setSaid(`Tag “${tag}” removed.`);
    // Focus stays in the list: on the tag that takes its place, else the one before, else the field.
    const buttons = list.current ? [...list.current.querySelectorAll<HTMLButtonElement>('button')] : [];
    (buttons[i + 1] ?? buttons[i - 1] ?? window.document.getElementById(inputId))?.focus();
  }

  const describedBy = [`${inputId}-hint`, problem && `${inputId}-error`].filter(Boolean).join(' ');
  return (
    <fieldset id={fieldId('tags')} tabIndex={-1} className="min-w-0 rounded-lg border border-gray-800 p-4">
      <legend className="px-1 text-sm font-medium text-gray-200">Tags</legend>
      {tags.length > 0 ? (
        <ul ref={list} aria-label="The post's tags" className="mb-3 flex flex-wrap gap-2">
          {tags.map((tag, i) => (
            <li key={tag} className="flex max-w-full items-center rounded-full border border-gray-700 bg-gray-800/70 ps-3 text-sm text-gray-100">
              <span className="min-w-0 [overflow-wrap:anywhere]">{tag}</span>
              <button
                type="button"
                className="inline-flex size-11 shrink-0 items-center justify-center rounded-full text-gray-300 hover:text-white"
                aria-label={`Remove the tag ${tag}`}
                onClick={() => remove(i)}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm text-gray-400">No tags yet.</p>
      )}
      <label htmlFor={inputId} className="field-label">
        Add a tag
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={inputId}
          className="field-input min-w-0 flex-[1_1_12rem]"
          value={text}
          disabled={full}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setRefused(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="btn btn-secondary" disabled={full} onClick={add}>
          Add
        </button>
      </div>
      <p id={`${inputId}-hint`} className="mt-1.5 text-sm text-gray-400">
        {full ? `The post has ${LIMITS.tags} tags, the most it may have.` : `Up to ${LIMITS.tags}, each a page of the writing index listing its posts.`}
      </p>
      {problem && (
        <p id={`${inputId}-error`} className="field-error">
          {problem}
        </p>
      )}
      <p aria-live="polite" className="sr-only">
        {said}
      </p>
    </fieldset>
  );
}
