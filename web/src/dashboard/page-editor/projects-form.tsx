/** The projects, every field of each: title, description, screenshot, links, stack, technologies, id. */
import { useState } from 'react';
import type { Project, Stack } from '../../content/document';
import { EditableList } from './editable-list';
import { Group, SelectField, TextField } from './fields';
import { ImageField } from './image-field';
import { freshId, type ListFormProps } from './list-form-parts';
import { pruneUnused } from './media';
import { SectionWords } from './section-words';

const STACKS: { value: Stack; label: string }[] = [
  { value: 'frontend', label: 'Frontend' },
  { value: 'backend', label: 'Backend' },
  { value: 'fullstack', label: 'Full stack' },
];

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

function ProjectFields({ project, i, document, problems, edit }: ListFormProps & { project: Project; i: number }) {
  const p = `projects[${i}]`;
  const technologyProblem = Object.entries(problems).find(([path]) => path.startsWith(`${p}.technologies`))?.[1];
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          path={`${p}.title`}
          label="Title"
          value={project.title}
          problem={problems[`${p}.title`]}
          onChange={(v) => edit((d) => void (d.projects[i]!.title = v))}
        />
        <TextField
          path={`${p}.id`}
          label="Id"
          hint="Lowercase letters, digits and hyphens. Clicks are counted by it: keep it."
          value={project.id}
          problem={problems[`${p}.id`]}
          onChange={(v) => edit((d) => void (d.projects[i]!.id = v))}
        />
      </div>
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
      <div className="grid gap-4 md:grid-cols-2">
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
      </div>
      <div className="grid gap-4 md:grid-cols-2">
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
      </div>
    </>
  );
}

export function ProjectsForm({ document, problems, edit }: ListFormProps) {
  return (
    <Group title="Projects">
      <SectionWords name="projects" document={document} problems={problems} edit={edit} />
      <EditableList
        path="projects"
        items={document.projects}
        of={(d) => d.projects}
        problems={problems}
        edit={edit}
        prefix={(i) => `Project ${i + 1}`}
        label={(project) => project.title}
        name={(project, i) => `project ${project.title || i + 1}`}
        fields={(project, i) => <ProjectFields project={project} i={i} document={document} problems={problems} edit={edit} />}
        add="Add a project"
        create={(d): Project => ({
          id: freshId('project', d.projects.map((p) => p.id)),
          title: '',
          description: '',
          // A placeholder screenshot until one is uploaded: the first project's, if any.
          image: d.projects[0]?.image ?? d.media.find((m) => !m.id.startsWith('logo-'))?.id ?? '',
          codeUrl: 'https://',
          demoUrl: 'https://',
          technologies: [],
          stack: 'frontend',
        })}
        firstField="title"
        afterRemove={pruneUnused}
      />
    </Group>
  );
}
