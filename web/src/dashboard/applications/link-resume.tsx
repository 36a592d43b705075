/**
 * An application link's own resume: which sections, projects and jobs the resume of its page shows
 * (the page's choice until one is made here), each change saved at once; the page's choice back
 * with one button.
 */
import { useId } from 'react';
import type { SectionKind } from '../../content/document';
import { useContent } from '../../content/context';
import type { ApplicationLink, LinkChange } from '../../api/links';

const SECTIONS: { kind: SectionKind; label: string }[] = [
  { kind: 'summary', label: 'Summary' },
  { kind: 'experience', label: 'Work experience' },
  { kind: 'projects', label: 'Projects' },
  { kind: 'skills', label: 'Skills' },
  { kind: 'education', label: 'Education' },
];

type Choice = { sections: SectionKind[]; projects: string[]; jobs: number[] };

export default function LinkResume({ link, change }: { link: ApplicationLink; change: (next: LinkChange) => Promise<void> }) {
  const id = useId();
  const document = useContent();
  const page = document.resume;
  const own = link.resume;
  // What its resume shows now: its own choice over the page's.
  const shown: Choice = {
    sections: own?.sections?.length ? own.sections : page.sections?.length ? page.sections : SECTIONS.map((s) => s.kind),
    projects: own?.projects ?? page.projects ?? document.projects.map((p) => p.id),
    jobs: own?.jobs ?? page.jobs ?? document.experience.map((_, i) => i),
  };
  const save = (next: Partial<Choice>) => void change({ resume: { ...shown, ...next } });
  const toggle = <T,>(list: T[], item: T, on: boolean, order: T[]) => order.filter((x) => (x === item ? on : list.includes(x)));
  const box = (key: string, label: string, checked: boolean, onChange: (on: boolean) => void) => (
    <label key={key} className="flex min-h-11 items-center gap-2 text-sm text-gray-200">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="size-4" />
      {label}
    </label>
  );
  return (
    <fieldset aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-gray-200">Its resume</legend>
      <p id={`${id}-hint`} className="text-sm text-gray-300">
        {own ? 'Its own: the page’s resume with these sections, projects and jobs.' : 'The page’s resume. Uncheck what this application need not see.'}
      </p>
      <div className="mt-1 flex flex-wrap gap-x-4" role="group" aria-label="Sections">
        {SECTIONS.map(({ kind, label }) =>
          box(kind, label, shown.sections.includes(kind), (on) =>
            save({ sections: toggle(shown.sections, kind, on, SECTIONS.map((s) => s.kind)) }),
          ),
        )}
      </div>
      <div className="flex flex-wrap gap-x-4" role="group" aria-label="Projects">
        {document.projects.map((project) =>
          box(project.id, project.title, shown.projects.includes(project.id), (on) =>
            save({ projects: toggle(shown.projects, project.id, on, document.projects.map((p) => p.id)) }),
          ),
        )}
      </div>
      <div className="flex flex-wrap gap-x-4" role="group" aria-label="Jobs">
        {document.experience.map((job, i) =>
          box(String(i), `${job.title}, ${job.place}`, shown.jobs.includes(i), (on) =>
            save({ jobs: toggle(shown.jobs, i, on, document.experience.map((_, j) => j)) }),
          ),
        )}
      </div>
      {own && (
        <button type="button" className="btn btn-secondary mt-2 min-h-11 px-3 text-sm" onClick={() => void change({ resume: null })}>
          Use the page’s resume
        </button>
      )}
    </fieldset>
  );
}
