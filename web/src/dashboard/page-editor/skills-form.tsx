/** The skills: a name and a logo picked from the bundled set. */
import { Group, SelectField, TextField } from '../shared/draft/fields';
import { EditableList } from './editable-list';
import type { ListFormProps } from './list-form-parts';
import { SectionWords } from './section-words';
import { ensureBundled, logoLabel, LOGOS, pruneUnused, sourceUrl } from './media';

export function SkillsForm({ document, problems, edit }: ListFormProps) {
  const logoOptions = LOGOS.map((m) => ({ value: m.id, label: logoLabel(m) }));
  return (
    <Group title="Skills">
      <SectionWords name="skills" document={document} problems={problems} edit={edit} />
      <EditableList
        path="skills"
        items={document.skills}
        of={(d) => d.skills}
        problems={problems}
        edit={edit}
        grid
        prefix={(i) => `Skill ${i + 1}`}
        label={(skill) => skill.name}
        name={(skill, i) => `skill ${skill.name || i + 1}`}
        fields={(skill, i, p) => {
          const logo = document.media.find((m) => m.id === skill.logo) ?? LOGOS.find((m) => m.id === skill.logo);
          const logoUrl = logo?.sources[0] ? sourceUrl(logo.sources[0].src) : undefined;
          const options = logoOptions.some((o) => o.value === skill.logo)
            ? logoOptions
            : [{ value: skill.logo, label: skill.logo }, ...logoOptions];
          return (
            <>
              <TextField
                path={`${p}.name`}
                label="Name"
                value={skill.name}
                problem={problems[`${p}.name`]}
                onChange={(v) => edit((d) => void (d.skills[i]!.name = v))}
              />
              <div className="flex items-end gap-3">
                <div className="flex-1">
                  <SelectField
                    path={`${p}.logo`}
                    label="Logo"
                    value={skill.logo}
                    options={options}
                    problem={problems[`${p}.logo`]}
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
            </>
          );
        }}
        add="Add a skill"
        create={(d) => {
          const logo = LOGOS[0]!.id;
          ensureBundled(d, logo);
          return { name: '', logo };
        }}
        firstField="name"
        afterRemove={pruneUnused}
      />
    </Group>
  );
}
