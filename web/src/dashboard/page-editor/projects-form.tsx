/** The projects, every field of each: title, description, screenshot, links, stack, technologies, id, and a link to its case study. */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import type { CaseStudyState } from '../../api/case-studies';
import type { Project, Stack } from '../../content/document';
import { EditableList } from './editable-list';
import { Group, SelectField, TextField } from '../shared/draft/fields';
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

/** The technologies as one comma-separated field (a project's, a case study's); the text is kept as typed while it means the same list. */
export function TechnologiesField({
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

/** The case studies begun, by project id (none known while loading, or when the server is away). */
function useCaseStudyStates(): Map<string, CaseStudyState> {
  const [states, setStates] = useState<Map<string, CaseStudyState>>(new Map());
  useEffect(() => {
    const controller = new AbortController();
    // The call itself, not api/case-studies.ts's, which stays in the case study editor's chunk.
    api<{ caseStudies: CaseStudyState[] }>('/api/content/case-studies', { signal: controller.signal }).then(
      ({ caseStudies }) => setStates(new Map(caseStudies.map((state) => [state.project, state]))),
      () => {},
    );
    return () => controller.abort();
  }, []);
  return states;
}

/** Where the project's case study stands, and the way to it (beside the stack and technologies, as a field is). */
function CaseStudyLink({ project, state }: { project: Project; state: CaseStudyState | undefined }) {
  const begun = state && (state.revision > 0 || state.version > 0 || state.placeholder);
  return (
    <div>
      <p className="field-label">Case study</p>
      <Link to={{ search: `?view=page&part=projects&case=${encodeURIComponent(project.id)}` }} className="btn btn-secondary whitespace-normal">
        {begun ? 'Edit the case study' : 'Begin a case study'}
      </Link>
      <p className="mt-1.5 text-sm text-gray-400">{!begun
          ? 'None yet.'
          : state.version > 0
            ? `Published, version ${state.version}.`
            : state.placeholder
              ? "The placeholder's example."
              : 'Not published yet.'}</p>
    </div>
  );
}

function ProjectFields({
  project,
  i,
  document,
  problems,
  edit,
  caseStudy,
}: ListFormProps & { project: Project; i: number; caseStudy: CaseStudyState | undefined }) {
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
          hint={
            caseStudy && (caseStudy.revision > 0 || caseStudy.version > 0)
              ? 'Lowercase letters, digits and hyphens. Clicks are counted by it, and its case study is kept under it: changed, the case study stays with the old id.'
              : 'Lowercase letters, digits and hyphens. Clicks are counted by it: keep it.'
          }
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
        prune={pruneUnused}
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
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
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
        <CaseStudyLink project={project} state={caseStudy} />
      </div>
    </>
  );
}

export function ProjectsForm({ document, problems, edit }: ListFormProps) {
  const caseStudies = useCaseStudyStates();
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
        fields={(project, i) => (
          <ProjectFields project={project} i={i} document={document} problems={problems} edit={edit} caseStudy={caseStudies.get(project.id)} />
        )}
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
