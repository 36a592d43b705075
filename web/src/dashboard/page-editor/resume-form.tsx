/**
 * The Resume part: which PDF `/resume.pdf` serves (the one made from the page, in every
 * published language, or the owner's upload), and how the made one is set: its paper, its pages,
 * its sections in order, and which projects and jobs it shows; previewed from the saved draft
 * (its text, its pages and what does not fit), with its PDF a click away.
 */
import { useId, useState } from 'react';
import type { ContentDocument, PaperSize, SectionKind } from '../../content/document';
import { draftResume, draftResumePdfUrl, importResume, loadDraft, uploadProblem, type ResumePreview } from '../../api/content';
import { CheckboxField, Group, SelectField, fieldId } from '../shared/draft/fields';
import type { SaveOutcome } from '../shared/draft/use-draft-sync';
import type { ListFormProps } from './list-form-parts';
import { ResumeField } from './resume-field';
import { languagesOf } from './translations';

const SECTIONS: { kind: SectionKind; label: string }[] = [
  { kind: 'summary', label: 'Summary (the intro)' },
  { kind: 'experience', label: 'Work experience' },
  { kind: 'projects', label: 'Projects' },
  { kind: 'skills', label: 'Skills' },
  { kind: 'education', label: 'Education' },
];
const ALL: SectionKind[] = SECTIONS.map((s) => s.kind);

/** The sections a document's resume shows, in order (none chosen: all of them). */
function sectionsOf(document: ContentDocument): SectionKind[] {
  const chosen = document.resume.sections ?? [];
  return chosen.length > 0 ? chosen : ALL;
}

/** The document's choice: none when it is every section in the usual order. */
function chosen(sections: SectionKind[]): SectionKind[] | undefined {
  return sections.join() === ALL.join() ? undefined : sections;
}

export function ResumePart({
  document,
  problems,
  edit,
  save,
  reload,
}: ListFormProps & { save: () => Promise<SaveOutcome>; reload: () => Promise<void> }) {
  const resume = document.resume;
  const generated = resume.source !== 'uploaded';
  const sections = sectionsOf(document);
  const sourceId = fieldId('resume.source');
  const setSections = (next: SectionKind[]) => edit((d) => void (d.resume.sections = chosen(next)));
  return (
    <Group title="Resume">
      <fieldset>
        <legend className="field-label">What Download Resume gives</legend>
        <div className="space-y-2">
          {(
            [
              ['generated', 'A resume made from this page', 'A PDF in each published language, a JSON Resume and plain text, made again at each publish.'],
              ['uploaded', 'The PDF I upload', 'Your own file, below, in every language.'],
            ] as const
          ).map(([value, label, hint]) => (
            <div key={value} className="flex items-start gap-3">
              <input
                id={`${sourceId}-${value}`}
                type="radio"
                name="resume-source"
                checked={value === 'generated' ? generated : !generated}
                aria-describedby={`${sourceId}-${value}-hint`}
                onChange={() => edit((d) => void (d.resume.source = value))}
                className="mt-1 size-5 accent-blue-600"
              />
              <div>
                <label htmlFor={`${sourceId}-${value}`} className="text-sm font-medium text-gray-100">
                  {label}
                </label>
                <p id={`${sourceId}-${value}-hint`} className="text-sm text-gray-400">
                  {hint}
                </p>
              </div>
            </div>
          ))}
        </div>
      </fieldset>
      {generated ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              path="resume.paper"
              label="Paper"
              problem={problems['resume.paper']}
              value={resume.paper ?? 'a4'}
              options={[
                { value: 'a4', label: 'A4' },
                { value: 'letter', label: 'US Letter' },
              ]}
              onChange={(v) => edit((d) => void (d.resume.paper = v as PaperSize))}
            />
            <SelectField
              path="resume.pages"
              label="At most"
              hint="What does not fit is left out whole, and named in the preview."
              problem={problems['resume.pages']}
              value={String(resume.pages ?? 2)}
              options={[
                { value: '1', label: 'One page' },
                { value: '2', label: 'Two pages' },
              ]}
              onChange={(v) => edit((d) => void (d.resume.pages = Number(v)))}
            />
          </div>
          <SectionsField sections={sections} onChange={setSections} />
          <ItemsField
            legend="Projects it shows"
            path="resume.projects"
            items={document.projects.map((p) => ({ key: p.id, label: p.title }))}
            shown={resume.projects ?? null}
            onChange={(keys) => edit((d) => void (d.resume.projects = keys ?? undefined))}
          />
          <ItemsField
            legend="Jobs it shows"
            path="resume.jobs"
            items={document.experience.map((job, i) => ({ key: String(i), label: `${job.title}, ${job.place}` }))}
            shown={resume.jobs?.map(String) ?? null}
            onChange={(keys) => edit((d) => void (d.resume.jobs = keys?.map(Number) ?? undefined))}
          />
          <ResumePreviewPanel document={document} save={save} />
        </>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <ResumeField path={resume.path} />
        <ImportField save={save} reload={reload} />
      </div>
    </Group>
  );
}

/** Moving in: a JSON Resume or a LinkedIn export's ZIP fills the draft (never published), and what it could not place is listed. */
function ImportField({ save, reload }: { save: () => Promise<SaveOutcome>; reload: () => Promise<void> }) {
  const id = useId();
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [unplaced, setUnplaced] = useState<string[] | null>(null);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    setUnplaced(null);
    setStatus('Reading your resume…');
    try {
      if ((await save()) !== 'saved') throw new Error('Save the draft first: it has problems to fix, shown above.');
      const { etag } = await loadDraft();
      const imported = await importResume(file, etag);
      await reload();
      setUnplaced(imported.unplaced);
      setStatus('Your draft now holds what the file says. Nothing is published until you publish.');
    } catch (cause) {
      setStatus(null);
      setProblem(cause instanceof Error && !('status' in cause) ? cause.message : uploadProblem(cause, 'JSON Resume or LinkedIn ZIP'));
    }
  }

  return (
    <Group title="Move in from another resume" level={3}>
      <div>
        <label htmlFor={id} className="field-label">
          A JSON Resume (.json) or your LinkedIn data export (.zip)
        </label>
        <input
          id={id}
          type="file"
          accept="application/json,.json,application/zip,.zip"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            void onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          className="block w-full text-sm text-gray-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border-0 file:bg-gray-800 file:px-4 file:text-gray-100"
        />
        <p role="status" className="mt-1.5 text-sm text-emerald-300">
          {status ?? ''}
        </p>
        {problem && (
          <p id={`${id}-error`} role="alert" className="field-error">
            Import: {problem}
          </p>
        )}
        {unplaced && unplaced.length > 0 && (
          <div className="mt-2">
            <p className="text-sm font-medium text-amber-300">Not placed on your page:</p>
            <ul className="list-disc ps-5 text-sm text-gray-300" aria-label="Not placed on your page">
              {unplaced.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Group>
  );
}

/** The sections, each shown or not, in order (a shown one moves up with its button). */
function SectionsField({ sections, onChange }: { sections: SectionKind[]; onChange: (next: SectionKind[]) => void }) {
  // Shown ones first in their order, then the others in the usual order.
  const order = [...sections, ...ALL.filter((kind) => !sections.includes(kind))];
  return (
    <fieldset>
      <legend className="field-label">Sections, in order</legend>
      <ul className="space-y-1">
        {order.map((kind) => {
          const label = SECTIONS.find((s) => s.kind === kind)!.label;
          const shown = sections.includes(kind);
          const at = sections.indexOf(kind);
          return (
            <li key={kind} className="flex items-center gap-2">
              <div className="flex-1">
                <CheckboxField
                  path={`resume.sections.${kind}`}
                  label={label}
                  checked={shown}
                  onChange={(on) => onChange(on ? [...sections, kind] : sections.filter((k) => k !== kind))}
                />
              </div>
              {shown && at > 0 ? (
                <button
                  type="button"
                  className="btn btn-secondary min-h-11 px-3 text-sm"
                  aria-label={`Move ${label} up`}
                  onClick={() => {
                    const next = sections.filter((k) => k !== kind);
                    next.splice(at - 1, 0, kind);
                    onChange(next);
                  }}
                >
                  Up
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** A list of items, each shown or not (all shown: the document names none, so new ones show too). */
function ItemsField({
  legend,
  path,
  items,
  shown,
  onChange,
}: {
  legend: string;
  path: string;
  items: { key: string; label: string }[];
  shown: string[] | null;
  onChange: (keys: string[] | null) => void;
}) {
  if (items.length === 0) return null;
  const isShown = (key: string) => shown === null || shown.includes(key);
  return (
    <fieldset>
      <legend className="field-label">{legend}</legend>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {items.map((item) => (
          <CheckboxField
            key={item.key}
            path={`${path}.${item.key}`}
            label={item.label}
            checked={isShown(item.key)}
            onChange={(on) => {
              const next = items.filter((i) => (i.key === item.key ? on : isShown(i.key))).map((i) => i.key);
              onChange(next.length === items.length ? null : next);
            }}
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The saved draft's resume: its pages, what does not fit, its text, and its PDF. */
function ResumePreviewPanel({ document, save }: { document: ContentDocument; save: () => Promise<SaveOutcome> }) {
  const languages = [document.language ?? 'en', ...languagesOf(document).map((l) => l.tag)];
  const [language, setLanguage] = useState(document.language ?? 'en');
  const [preview, setPreview] = useState<ResumePreview | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const id = useId();

  async function show() {
    setStatus('Saving the draft and making its resume…');
    const saved = await save();
    if (saved !== 'saved') {
      setStatus('The draft could not be saved: the preview shows the draft as saved. See the problems above.');
      return;
    }
    try {
      setPreview(await draftResume(language));
      setStatus(null);
    } catch {
      setStatus('The resume could not be made. Try again in a moment.');
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-lg border border-gray-800 p-4">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-gray-100">
        Resume preview
      </h3>
      <div className="flex flex-wrap items-end gap-3">
        {languages.length > 1 ? (
          <SelectField
            path="resume.previewLanguage"
            label="Language"
            problem={undefined}
            value={language}
            options={languages.map((tag) => ({ value: tag, label: tag }))}
            onChange={setLanguage}
          />
        ) : null}
        <button type="button" className="btn btn-primary" onClick={() => void show()}>
          Preview the resume
        </button>
      </div>
      <p role="status" className="text-sm text-gray-400">
        {status ?? ''}
      </p>
      {preview ? (
        <div className="space-y-2">
          <p className="text-sm text-gray-100">
            {preview.pages === 1 ? 'One page' : `${preview.pages} pages`}
            {preview.language !== language ? `, in ${preview.language}: the resume's fonts have no letters for ${language}` : ''}.{' '}
            <a className="link" href={draftResumePdfUrl(language)} target="_blank" rel="noopener">
              Open the PDF (opens in a new tab)
            </a>
          </p>
          {preview.leftOut.length > 0 ? (
            <div>
              <p className="text-sm font-medium text-amber-300">Left out, as it does not fit:</p>
              <ul className="list-disc ps-5 text-sm text-gray-300">
                {preview.leftOut.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-sm text-gray-400">Everything fits.</p>
          )}
          <pre aria-label="The resume's text" tabIndex={0} className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-gray-900 p-3 text-xs text-gray-200">
            {preview.text}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
