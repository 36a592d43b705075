/** The skills: a name and a logo picked from the bundled set. */
import { fieldId, Group, SelectField, TextField } from './fields';
import { focusLater, ListProblem, type ListFormProps } from './list-form-parts';
import { ListControls, moveItem } from './list-controls';
import { ensureBundled, logoLabel, LOGOS, pruneUnused, sourceUrl } from './media';

export function SkillsForm({ document, problems, edit }: ListFormProps) {
  const logoOptions = LOGOS.map((m) => ({ value: m.id, label: logoLabel(m) }));
  return (
    <Group title="Skills">
      <ListProblem path="skills" problems={problems} />
      <ol className="grid gap-4 md:grid-cols-2">
        {document.skills.map((skill, i) => {
          const logo = document.media.find((m) => m.id === skill.logo) ?? LOGOS.find((m) => m.id === skill.logo);
          const logoUrl = logo?.sources[0] ? sourceUrl(logo.sources[0].src) : undefined;
          const options = logoOptions.some((o) => o.value === skill.logo)
            ? logoOptions
            : [{ value: skill.logo, label: skill.logo }, ...logoOptions];
          return (
            <li key={i}>
              <Group level={3} id={fieldId(`skills[${i}]`)} title={`Skill ${i + 1}: ${skill.name || 'untitled'}`}>
                <TextField
                  path={`skills[${i}].name`}
                  label="Name"
                  value={skill.name}
                  problem={problems[`skills[${i}].name`]}
                  onChange={(v) => edit((d) => void (d.skills[i]!.name = v))}
                />
                <div className="flex items-end gap-3">
                  <div className="flex-1">
                    <SelectField
                      path={`skills[${i}].logo`}
                      label="Logo"
                      value={skill.logo}
                      options={options}
                      problem={problems[`skills[${i}].logo`]}
                      onChange={(v) =>
                        edit((d) => {
                          ensureBundled(d, v);
                          d.skills[i]!.logo = v;
                          pruneUnused(d);
                        })
                      }
                    />
                  </div>
                  {logoUrl && <img src={logoUrl} alt="" width={44} height={44} className="size-11 rounded bg-gray-800 p-2" />}
                </div>
                <ListControls
                  listPath="skills"
                  index={i}
                  count={document.skills.length}
                  name={`skill ${skill.name || i + 1}`}
                  onMove={(to) => edit((d) => moveItem(d.skills, i, to))}
                  onRemove={() => edit((d) => void (d.skills.splice(i, 1), pruneUnused(d)))}
                />
              </Group>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          const logo = LOGOS[0]!.id;
          edit((d) => {
            ensureBundled(d, logo);
            d.skills.push({ name: '', logo });
          });
          focusLater(`skills[${document.skills.length}].name`);
        }}
      >
        Add a skill
      </button>
    </Group>
  );
}
