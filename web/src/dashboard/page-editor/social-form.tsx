/** The social links: site name, address and the id its clicks are counted by. */
import { fieldId, Group, TextField } from './fields';
import { focusLater, freshId, ListProblem, type ListFormProps } from './list-form-parts';
import { ListControls, moveItem } from './list-controls';

export function SocialForm({ document, problems, edit }: ListFormProps) {
  return (
    <Group title="Social links">
      <ListProblem path="social" problems={problems} />
      <ol className="space-y-4">
        {document.social.map((link, i) => (
          <li key={i}>
            <Group level={3} id={fieldId(`social[${i}]`)} title={`Link ${i + 1}: ${link.label || 'untitled'}`}>
              <TextField
                path={`social[${i}].label`}
                label="Site name"
                hint="e.g. GitHub"
                value={link.label}
                problem={problems[`social[${i}].label`]}
                onChange={(v) => edit((d) => void (d.social[i]!.label = v))}
              />
              <TextField
                path={`social[${i}].url`}
                label="Address"
                type="url"
                value={link.url}
                problem={problems[`social[${i}].url`]}
                onChange={(v) => edit((d) => void (d.social[i]!.url = v))}
              />
              <TextField
                path={`social[${i}].id`}
                label="Id"
                hint="Lowercase letters, digits and hyphens; clicks are counted by it, so keep it."
                value={link.id}
                problem={problems[`social[${i}].id`]}
                onChange={(v) => edit((d) => void (d.social[i]!.id = v))}
              />
              <ListControls
                listPath="social"
                index={i}
                count={document.social.length}
                name={`link ${link.label || i + 1}`}
                onMove={(to) => edit((d) => moveItem(d.social, i, to))}
                onRemove={() => edit((d) => void d.social.splice(i, 1))}
              />
            </Group>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => void d.social.push({ id: freshId('link', d.social.map((s) => s.id)), label: '', url: 'https://' }));
          focusLater(`social[${document.social.length}].label`);
        }}
      >
        Add a link
      </button>
    </Group>
  );
}
