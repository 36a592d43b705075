/**
 * How the page looks: the scheme a visitor sees first, the accent colour (checked by the server
 * for contrast in both schemes, its problem shown beside the field), which sections show, and the
 * "Available for new projects" badge.
 */
import type { Scheme, Sections } from '../../content/document';
import { CheckboxField, fieldId, Group, TextField } from '../shared/draft/fields';
import type { ListFormProps } from './list-form-parts';

const SCHEMES: { value: Scheme; label: string; hint: string }[] = [
  { value: 'dark', label: 'Dark', hint: 'The page as it was designed first.' },
  { value: 'light', label: 'Light', hint: 'The same page in daylight.' },
  { value: 'system', label: "The visitor's system setting", hint: 'Light or dark, as their device is set.' },
];

const SECTIONS: { key: keyof Sections; label: string }[] = [
  { key: 'about', label: 'About' },
  { key: 'skills', label: 'Skills' },
  { key: 'projects', label: 'Projects' },
  { key: 'experience', label: 'Experience and education' },
  { key: 'contact', label: 'Contact' },
  { key: 'writing', label: 'Writing (the latest posts, once there is one)' },
];

export function AppearancePart({ document, problems, edit }: ListFormProps) {
  const { appearance } = document;
  const accentId = fieldId('appearance.accent');
  // The server ends a refused accent with the nearest shade that passes: offered in one click.
  const refused = problems['appearance.accent'];
  const [problem, shade] = refused?.split('; the nearest shade that passes is ') ?? [];
  return (
    <Group title="Appearance">
      <fieldset>
        <legend className="field-label">Scheme visitors see first</legend>
        <p className="mb-2 text-sm text-gray-400">Visitors can switch with the toggle in the navigation; their choice is kept in their browser.</p>
        <div className="space-y-2">
          {SCHEMES.map(({ value, label, hint }) => {
            const id = fieldId(`appearance.scheme.${value}`);
            return (
              <div key={value} className="flex items-start gap-3">
                <input
                  id={id}
                  type="radio"
                  name="appearance-scheme"
                  value={value}
                  checked={appearance.scheme === value}
                  aria-describedby={`${id}-hint`}
                  onChange={() => edit((d) => void (d.appearance.scheme = value))}
                  className="mt-1 size-5 accent-blue-600"
                />
                <div>
                  <label htmlFor={id} className="text-sm font-medium text-gray-100">
                    {label}
                  </label>
                  <p id={`${id}-hint`} className="text-sm text-gray-400">
                    {hint}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>

      <div>
        <div className="flex items-end gap-3">
          <div className="flex-1">
            <TextField
              path="appearance.accent"
              label="Accent colour"
              hint="As #rrggbb. Buttons, links and focus rings use it; it must keep text readable in both schemes."
              value={appearance.accent}
              problem={problem}
              onChange={(v) => edit((d) => void (d.appearance.accent = v.trim()))}
            />
          </div>
          <input
            type="color"
            aria-label="Pick the accent colour"
            value={/^#[0-9a-fA-F]{6}$/.test(appearance.accent) ? appearance.accent.toLowerCase() : '#155dfc'}
            onChange={(e) => edit((d) => void (d.appearance.accent = e.target.value))}
            aria-controls={accentId}
            className="mb-0 h-11 w-14 cursor-pointer rounded-lg border border-gray-700 bg-gray-950 p-1"
          />
        </div>
        {shade && (
          <button type="button" className="btn btn-secondary mt-2 min-h-11" onClick={() => edit((d) => void (d.appearance.accent = shade))}>
            <span aria-hidden="true" className="size-4 rounded-full" style={{ background: shade }} />
            Use {shade} instead
          </button>
        )}
      </div>

      <fieldset>
        <legend className="field-label">Sections shown</legend>
        <p className="mb-2 text-sm text-gray-400">A hidden section leaves the page and the navigation; its content stays here.</p>
        <div className="grid gap-2 sm:grid-cols-2">
          {SECTIONS.map(({ key, label }) => (
            <CheckboxField
              key={key}
              path={`appearance.sections.${key}`}
              label={label}
              checked={appearance.sections[key] ?? true}
              onChange={(checked) => edit((d) => void (d.appearance.sections[key] = checked))}
            />
          ))}
        </div>
      </fieldset>

      <CheckboxField
        path="appearance.available"
        label="Show the “Available for new projects” badge"
        checked={appearance.available}
        onChange={(checked) => edit((d) => void (d.appearance.available = checked))}
      />
    </Group>
  );
}
