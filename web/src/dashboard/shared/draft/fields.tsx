/**
 * The editor's fields: each labelled, its problem (by the server's path) shown beside it with
 * `aria-invalid` and `aria-describedby`.
 */
import type { ReactNode } from 'react';
import { sentence } from '../../../api/problems';

/** A DOM id for the field at a document path: `projects[2].title` is `field-projects-2-title`. */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}`;
}

interface Common {
  path: string;
  label: string;
  problem: string | undefined;
  hint?: string;
}

function Described({ id, hint, problem, label }: { id: string; hint?: string; problem: string | undefined; label: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-gray-400">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} className="field-error">
          {sentence(id, problem, label)}
        </p>
      )}
    </>
  );
}

function describedBy(id: string, hint: string | undefined, problem: string | undefined): string | undefined {
  return [hint && `${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ') || undefined;
}

export function TextField({
  path,
  label,
  problem,
  hint,
  value,
  onChange,
  type = 'text',
  multiline = false,
  required = true,
  autoComplete,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'url' | 'tel';
  multiline?: boolean;
  required?: boolean;
  autoComplete?: string;
}) {
  const id = fieldId(path);
  const common = {
    id,
    value,
    required,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy(id, hint, problem),
    className: 'field-input',
  } as const;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete ?? 'off'} onChange={(e) => onChange(e.target.value)} />
      )}
      <Described id={id} hint={hint} problem={problem} label={label} />
    </div>
  );
}

export function SelectField({
  path,
  label,
  problem,
  hint,
  value,
  options,
  onChange,
}: Common & { value: string; options: { value: string; label: string }[]; onChange: (value: string) => void }) {
  const id = fieldId(path);
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy(id, hint, problem)}
        className="field-input"
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Described id={id} hint={hint} problem={problem} label={label} />
    </div>
  );
}

/** A checkbox with its label, the whole row a 44 px target. */
export function CheckboxField({ path, label, checked, onChange }: { path: string; label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = fieldId(path);
  return (
    <div className="flex min-h-11 items-center gap-3">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} className="size-5 accent-blue-600" />
      <label htmlFor={id} className="flex min-h-11 flex-1 items-center text-sm font-medium text-gray-100">
        {label}
      </label>
    </div>
  );
}

/** A titled group of fields (a part of the document, or one item of a list). */
export function Group({ title, level = 2, children, id }: { title: string; level?: 2 | 3 | 4; children: ReactNode; id?: string }) {
  const Heading = `h${level}` as 'h2' | 'h3' | 'h4';
  const headingId = `${id ?? fieldId(title)}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className={level === 2 ? 'rounded-xl border border-gray-800 bg-gray-900/40 p-4 md:p-6' : 'rounded-lg border border-gray-800 p-4'}
    >
      <Heading id={headingId} className={level === 2 ? 'mb-4 text-xl font-bold text-white' : 'mb-3 text-base font-semibold text-white'}>
        {title}
      </Heading>
      <div className="space-y-4">{children}</div>
    </section>
  );
}
