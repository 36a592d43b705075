/** The social links: site name, address and the id its clicks are counted by. */
import { Group, TextField } from '../shared/draft/fields';
import { EditableList } from './editable-list';
import { freshId, type ListFormProps } from './list-form-parts';

export function SocialForm({ document, problems, edit }: ListFormProps) {
  return (
    <Group title="Social links">
      <EditableList
        path="social"
        items={document.social}
        of={(d) => d.social}
        problems={problems}
        edit={edit}
        prefix={(i) => `Link ${i + 1}`}
        label={(link) => link.label}
        name={(link, i) => `link ${link.label || i + 1}`}
        fields={(link, i, p) => (
          <>
            <TextField
              path={`${p}.label`}
              label="Site name"
              hint="e.g. GitHub"
              value={link.label}
              problem={problems[`${p}.label`]}
              onChange={(v) => edit((d) => void (d.social[i]!.label = v))}
            />
            <TextField
              path={`${p}.url`}
              label="Address"
              type="url"
              value={link.url}
              problem={problems[`${p}.url`]}
              onChange={(v) => edit((d) => void (d.social[i]!.url = v))}
            />
            <TextField
              path={`${p}.id`}
              label="Id"
              hint="Lowercase letters, digits and hyphens; clicks are counted by it, so keep it."
              value={link.id}
              problem={problems[`${p}.id`]}
              onChange={(v) => edit((d) => void (d.social[i]!.id = v))}
            />
          </>
        )}
        add="Add a link"
        create={(d) => ({ id: freshId('link', d.social.map((s) => s.id)), label: '', url: 'https://' })}
        firstField="label"
      />
    </Group>
  );
}
