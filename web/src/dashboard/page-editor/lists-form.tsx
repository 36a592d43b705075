/** The lists of the document: social links, skills, projects, experience and education with their awards. */
import { useState } from 'react';
import type { ContentDocument, Project, Stack, TimelineEntry } from '../../content/document';
import { fieldId, Group, SelectField, TextField } from './fields';
import { ImageField } from './image-field';
import { ListControls, moveItem } from './list-controls';
import { ensureBundled, logoLabel, LOGOS, pruneUnused, sourceUrl } from './media';
import type { Problems } from './validate';

type Edit = (change: (draft: ContentDocument) => void) => void;
interface Props {
  document: ContentDocument;
  problems: Problems;
  edit: Edit;
}

const STACKS: { value: Stack; label: string }[] = [
  { value: 'frontend', label: 'Frontend' },
  { value: 'backend', label: 'Backend' },
  { value: 'fullstack', label: 'Full stack' },
];

/** An id not yet taken in `taken`, from `stem`: `project-2`, `project-3` … */
function freshId(stem: string, taken: string[]): string {
  for (let n = taken.length + 1; ; n += 1) if (!taken.includes(`${stem}-${n}`)) return `${stem}-${n}`;
}

/** Focuses the first field of a just-added item once it is drawn. */
function focusLater(path: string) {
  requestAnimationFrame(() => document.getElementById(fieldId(path))?.focus());
}

function ListProblem({ path, problems }: { path: string; problems: Problems }) {
  return problems[path] ? <p className="field-error">{problems[path]}</p> : null;
}

export function SocialForm({ document, problems, edit }: Props) {
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

export function SkillsForm({ document, problems, edit }: Props) {
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

function parseTechnologies(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The technologies as one comma-separated field; the text is kept as typed while it means the same list. */
function TechnologiesField({
  path,
  technologies,
  problem,
  onChange,
}: {
  path: string;
  technologies: string[];
  problem: string | undefined;
  onChange: (list: string[]) => void;
}) {
  const [text, setText] = useState(technologies.join(', '));
  const shown = parseTechnologies(text).join('\n') === technologies.join('\n') ? text : technologies.join(', ');
  return (
    <TextField
      path={path}
      label="Technologies"
      hint="Separated by commas, e.g. React, Node.js"
      required={false}
      value={shown}
      problem={problem}
      onChange={(v) => {
        setText(v);
        onChange(parseTechnologies(v));
      }}
    />
  );
}

function ProjectFields({ project, i, document, problems, edit }: Props & { project: Project; i: number }) {
  const p = `projects[${i}]`;
  const technologyProblem = Object.entries(problems).find(([path]) => path.startsWith(`${p}.technologies`))?.[1];
  return (
    <>
      <TextField
        path={`${p}.title`}
        label="Title"
        value={project.title}
        problem={problems[`${p}.title`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.title = v))}
      />
      <TextField
        path={`${p}.description`}
        label="Description"
        multiline
        value={project.description}
        problem={problems[`${p}.description`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.description = v))}
      />
      <ImageField
        path={`${p}.image`}
        label="Screenshot"
        document={document}
        mediaId={project.image}
        problems={problems}
        edit={edit}
        onPoint={(d, id) => void (d.projects[i]!.image = id)}
      />
      <TextField
        path={`${p}.codeUrl`}
        label="Code address"
        type="url"
        value={project.codeUrl}
        problem={problems[`${p}.codeUrl`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.codeUrl = v))}
      />
      <TextField
        path={`${p}.demoUrl`}
        label="Live demo address"
        type="url"
        value={project.demoUrl}
        problem={problems[`${p}.demoUrl`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.demoUrl = v))}
      />
      <SelectField
        path={`${p}.stack`}
        label="Stack"
        hint="Which filter of the Projects section shows it."
        value={project.stack}
        options={STACKS}
        problem={problems[`${p}.stack`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.stack = v as Stack))}
      />
      <TechnologiesField
        path={`${p}.technologies`}
        technologies={project.technologies}
        problem={technologyProblem}
        onChange={(list) => edit((d) => void (d.projects[i]!.technologies = list))}
      />
      <TextField
        path={`${p}.id`}
        label="Id"
        hint="Lowercase letters, digits and hyphens; clicks on its links are counted by it, so keep it when the title changes."
        value={project.id}
        problem={problems[`${p}.id`]}
        onChange={(v) => edit((d) => void (d.projects[i]!.id = v))}
      />
    </>
  );
}

export function ProjectsForm({ document, problems, edit }: Props) {
  return (
    <Group title="Projects">
      <ListProblem path="projects" problems={problems} />
      <ol className="space-y-4">
        {document.projects.map((project, i) => (
          <li key={i}>
            <Group level={3} id={fieldId(`projects[${i}]`)} title={`Project ${i + 1}: ${project.title || 'untitled'}`}>
              <ProjectFields project={project} i={i} document={document} problems={problems} edit={edit} />
              <ListControls
                listPath="projects"
                index={i}
                count={document.projects.length}
                name={`project ${project.title || i + 1}`}
                onMove={(to) => edit((d) => moveItem(d.projects, i, to))}
                onRemove={() => edit((d) => void (d.projects.splice(i, 1), pruneUnused(d)))}
              />
            </Group>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => {
            // A placeholder screenshot until one is uploaded: the first project's, if any.
            const image = d.projects[0]?.image ?? d.media.find((m) => !m.id.startsWith('logo-'))?.id ?? '';
            d.projects.push({
              id: freshId('project', d.projects.map((p) => p.id)),
              title: '',
              description: '',
              image,
              codeUrl: 'https://',
              demoUrl: 'https://',
              technologies: [],
              stack: 'frontend',
            });
          });
          focusLater(`projects[${document.projects.length}].title`);
        }}
      >
        Add a project
      </button>
    </Group>
  );
}

function Awards({ list, i, entry, document, problems, edit }: Props & { list: 'experience' | 'education'; i: number; entry: TimelineEntry }) {
  const base = `${list}[${i}].awards`;
  return (
    <div className="space-y-3">
      <ListProblem path={base} problems={problems} />
      <ol className="space-y-3">
        {entry.awards.map((award, j) => (
          <li key={j}>
            <Group level={4} id={fieldId(`${base}[${j}]`)} title={`Award ${j + 1}: ${award.title || 'untitled'}`}>
              <TextField
                path={`${base}[${j}].title`}
                label="Award title"
                value={award.title}
                problem={problems[`${base}[${j}].title`]}
                onChange={(v) => edit((d) => void (d[list][i]!.awards[j]!.title = v))}
              />
              <ImageField
                path={`${base}[${j}].certificate`}
                label="Certificate"
                document={document}
                mediaId={award.certificate}
                problems={problems}
                edit={edit}
                onPoint={(d, id) => void (d[list][i]!.awards[j]!.certificate = id)}
              />
              <ListControls
                listPath={base}
                index={j}
                count={entry.awards.length}
                name={`award ${award.title || j + 1}`}
                onMove={(to) => edit((d) => moveItem(d[list][i]!.awards, j, to))}
                onRemove={() => edit((d) => void (d[list][i]!.awards.splice(j, 1), pruneUnused(d)))}
              />
            </Group>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          edit((d) => {
            const certificate =
              [...d.experience, ...d.education].flatMap((e) => e.awards.map((a) => a.certificate))[0] ??
              d.media.find((m) => !m.id.startsWith('logo-'))?.id ??
              '';
            d[list][i]!.awards.push({ title: '', certificate });
          });
          focusLater(`${base}[${entry.awards.length}].title`);
        }}
      >
        Add an award to {entry.title || `entry ${i + 1}`}
      </button>
    </div>
  );
}

export function TimelineForm({ list, document, problems, edit }: Props & { list: 'experience' | 'education' }) {
  const title = list === 'experience' ? 'Experience' : 'Education';
  const noun = list === 'experience' ? 'job' : 'school';
  return (
    <Group title={title}>
      <p className="text-sm text-gray-400">Newest first.</p>
      <ListProblem path={list} problems={problems} />
      <ol className="space-y-4">
        {document[list].map((entry, i) => {
          const p = `${list}[${i}]`;
          return (
            <li key={i}>
              <Group level={3} id={fieldId(p)} title={`${title} ${i + 1}: ${entry.title || 'untitled'}`}>
                <TextField
                  path={`${p}.title`}
                  label={list === 'experience' ? 'Job title' : 'Degree or course'}
                  value={entry.title}
                  problem={problems[`${p}.title`]}
                  onChange={(v) => edit((d) => void (d[list][i]!.title = v))}
                />
                <TextField
                  path={`${p}.place`}
                  label={list === 'experience' ? 'Company' : 'School'}
                  value={entry.place}
                  problem={problems[`${p}.place`]}
                  onChange={(v) => edit((d) => void (d[list][i]!.place = v))}
                />
                <TextField
                  path={`${p}.date`}
                  label="Dates"
                  hint="As shown, e.g. 2021 - 2023"
                  value={entry.date}
                  problem={problems[`${p}.date`]}
                  onChange={(v) => edit((d) => void (d[list][i]!.date = v))}
                />
                <TextField
                  path={`${p}.description`}
                  label="Description"
                  multiline
                  value={entry.description}
                  problem={problems[`${p}.description`]}
                  onChange={(v) => edit((d) => void (d[list][i]!.description = v))}
                />
                <Awards list={list} i={i} entry={entry} document={document} problems={problems} edit={edit} />
                <ListControls
                  listPath={list}
                  index={i}
                  count={document[list].length}
                  name={`${noun} ${entry.title || i + 1}`}
                  onMove={(to) => edit((d) => moveItem(d[list], i, to))}
                  onRemove={() => edit((d) => void (d[list].splice(i, 1), pruneUnused(d)))}
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
          edit((d) => void d[list].push({ title: '', place: '', date: '', description: '', awards: [] }));
          focusLater(`${list}[${document[list].length}].title`);
        }}
      >
        Add {list === 'experience' ? 'a job' : 'a school'}
      </button>
    </Group>
  );
}
