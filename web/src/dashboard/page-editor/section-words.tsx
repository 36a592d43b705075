/**
 * The page's own words around its content: each section's heading and lead, edited in that
 * section's part, and the footer, a part of its own.
 */
import { Group, SelectField, TextField } from './fields';
import type { ListFormProps } from './list-form-parts';
import type { SECTION_NAMES } from './translations';

type SectionName = (typeof SECTION_NAMES)[number][0];

/** A section's heading and the line below it (`sections.<name>`). */
export function SectionWords({ name, document, problems, edit }: ListFormProps & { name: SectionName }) {
  const text = document.sections[name];
  const at = `sections.${name}`;
  return (
    <Group title="Heading and lead" level={3} id={`sections-${name}`}>
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
    </Group>
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
