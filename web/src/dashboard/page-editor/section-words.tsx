/**
 * The page's own words around its content: each section's heading and lead, edited in that
 * section's part, and the footer, a part of its own.
 */
import { ChevronDown } from 'lucide-react';
import { Group, SelectField, TextField } from '../shared/draft/fields';
import type { ListFormProps } from './list-form-parts';
import type { SECTION_NAMES } from './translations';

type SectionName = (typeof SECTION_NAMES)[number][0];

/**
 * A section's heading and the line below it (`sections.<name>`), folded to the heading as a
 * list's items are (open while either has a problem; a link to either field opens it).
 */
export function SectionWords({ name, document, problems, edit }: ListFormProps & { name: SectionName }) {
  const text = document.sections[name];
  const at = `sections.${name}`;
  const troubled = Boolean(problems[`${at}.title`] ?? problems[`${at}.lead`]);
  return (
    <details className="group rounded-lg border border-gray-800" open={troubled || undefined}>
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 rounded-lg px-4 py-2">
        <span className="min-w-0 truncate">
          <span className="font-semibold text-white">Heading and lead</span>
          <span className="text-gray-400">: {text.title}</span>
        </span>
        <ChevronDown aria-hidden="true" className="size-4 shrink-0 group-open:rotate-180" />
      </summary>
      <div className="space-y-4 px-4 pb-4">
      <TextField
        path={`${at}.title`}
        label="Heading"
        value={text.title}
        problem={problems[`${at}.title`]}
        onChange={(v) => edit((d) => void (d.sections[name].title = v))}
      />
      <TextField
        path={`${at}.lead`}
        label="Lead"
        hint="The line below the heading; leave it empty for none."
        multiline
        required={false}
        value={text.lead}
        problem={problems[`${at}.lead`]}
        onChange={(v) => edit((d) => void (d.sections[name].lead = v))}
      />
      </div>
    </details>
  );
}

/** The years the copyright may start from: this year back to 1980. */
function years(): { value: string; label: string }[] {
  const now = new Date().getFullYear();
  return Array.from({ length: now - 1979 }, (_, i) => String(now - i)).map((year) => ({ value: year, label: year }));
}

export function FooterPart({ document, problems, edit }: ListFormProps) {
  const { footer } = document;
  const options = years();
  const since = String(footer.since);
  return (
    <Group title="Footer">
      <TextField
        path="footer.title"
        label="Title"
        value={footer.title}
        problem={problems['footer.title']}
        onChange={(v) => edit((d) => void (d.footer.title = v))}
      />
      <TextField
        path="footer.line"
        label="Line"
        hint="A sentence below the title; leave it empty for none."
        multiline
        required={false}
        value={footer.line}
        problem={problems['footer.line']}
        onChange={(v) => edit((d) => void (d.footer.line = v))}
      />
      <SelectField
        path="footer.since"
        label="First year of the copyright"
        hint="The copyright line runs from this year to the year you publish, e.g. © 2025–2026."
        value={since}
        options={options.some((o) => o.value === since) ? options : [{ value: since, label: since }, ...options]}
        problem={problems['footer.since']}
        onChange={(v) => edit((d) => void (d.footer.since = Number(v)))}
      />
    </Group>
  );
}
