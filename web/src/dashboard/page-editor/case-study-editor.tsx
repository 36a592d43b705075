/**
 * A project's case study in the editor (`/dashboard?view=page&part=projects&case=<project>`):
 * every field of it, checked as the server checks it, its own draft saved as the owner types (with
 * `If-Match`, merged with a save made elsewhere, kept across a reload: the page's hooks with the
 * case study's source), published and reverted apart from the page. A chunk of its own: the Page
 * tab downloads it when a case study is opened.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Trash2 } from 'lucide-react';
import { ApiError } from '../../api/client';
import { uploadImage, uploadProblem } from '../../api/content';
import {
  listCaseStudies,
  listCaseStudyVersions,
  loadCaseStudyDraft,
  publishCaseStudy,
  revertCaseStudy,
  saveCaseStudyDraft,
  type CaseStudyDraft,
} from '../../api/case-studies';
import { sentence } from '../../api/problems';
import type { CaseLink, CaseLinkKind, CaseStudy, Decision, Figure, Language } from '../../content/document';
import { followCaseItems } from './case-study-texts';
import { CaseStudyTranslations, translationPlace } from './case-study-translations';
import { caseStudyProblems, pruneCaseStudyMedia } from './case-study-validate';
import { Notices, ProblemSummary } from '../shared/draft/draft-notices';
import type { DraftSource } from '../shared/draft/draft-source';
import { EditableList } from './editable-list';
import { fieldId, Group, SelectField, TextField } from '../shared/draft/fields';
import { ImageField } from './image-field';
import { addUpload } from '../shared/draft/uploads';
import { placeOf } from './problem-count';
import { TechnologiesField } from './projects-form';
import { PublishButton, VersionsPart } from '../shared/draft/publish-panel';
import { ScheduleButton } from '../shared/draft/schedule-button';
import { SaveStatus } from '../shared/draft/save-status';
import { moveItem, SortableList, useListKeys } from './sortable-list';
import { useDraftOf } from '../shared/draft/use-draft-of';
import { useSaveShortcut } from '../shared/draft/use-save-shortcut';
import type { Problems } from './validate';

type Edit = (change: (draft: CaseStudy) => void) => void;

/** Where a case study's unsaved edits wait across a reload, one place per project. */
export const caseStudyUnsavedKey = (project: string) => `portfolio:case-study-editor:unsaved:${project}`;

/** What the page's editor shows of the case study being edited: its problems in the parts list, its revision for the preview. */
export interface CaseStudyStatus {
  problems: number;
  revision: number;
  slug: string;
}

const MARKDOWN_HINT = 'Markdown is taken: paragraphs, *emphasis*, **strong**, [links](https://…), lists and `code`.';

const KINDS: { value: CaseLinkKind; label: string }[] = [
  { value: 'code', label: 'Code' },
  { value: 'live', label: 'Live site' },
  { value: 'article', label: 'Write-up' },
];

/** A failure of the case study's requests in the owner's words: what to do next. */
export function caseStudyFailure(cause: unknown): string | undefined {
  if (!(cause instanceof ApiError)) return undefined;
  if (cause.status === 404) return 'Not published: this case study has no saved draft yet. Fill in its fields so that it saves, then publish it.';
  if (cause.status === 422) {
    if ('project' in cause.fields)
      return 'Not published: this project is not on the live page yet. Publish the page with this project first, then its case study.';
    const fields = Object.entries(cause.fields);
    if (fields.length > 0) return `Not published: ${fields.map(([field, problem]) => sentence(field, problem, placeOf(field, 'the case study'))).join(' ')}`;
  }
  return undefined;
}

/** The case study's draft source: loaded and saved at its project's address. */
function sourceOf(project: string): DraftSource<CaseStudy> {
  return {
    load: async (signal) => {
      try {
        return await loadCaseStudyDraft(project, signal);
      } catch (cause) {
        if (cause instanceof ApiError && cause.status === 404)
          throw new Error(
            "this project is not in the page's saved draft yet. Fix the page's problems so that it saves (its status says when), then open the case study again.",
          );
        throw cause;
      }
    },
    save: (document, etag) => saveCaseStudyDraft(document, etag) satisfies Promise<CaseStudyDraft>,
    problemsOf: caseStudyProblems,
    follow: followCaseItems,
    unsavedKey: caseStudyUnsavedKey(project),
  };
}

export default function CaseStudyEditor({
  project,
  title,
  languages,
  sourceTag,
  onClose,
  onStatus,
}: {
  /** The project's id. */
  project: string;
  /** The project's title, as the page's draft has it. */
  title: string;
  /** The page's other languages and its own, as its draft has them: the case study is translated into each. */
  languages: Pick<Language, 'tag' | 'published'>[];
  sourceTag: string;
  /** Goes back to the projects. */
  onClose: () => void;
  onStatus: (status: CaseStudyStatus | null) => void;
}) {
  const source = useMemo(() => sourceOf(project), [project]);
  const draft = useDraftOf(source);
  const { document: study, problems, flush } = draft;
  const count = Object.keys(problems).length;
  const [published, setPublished] = useState(0);
  // The newest published version: 0 for none, -1 for the placeholder's example, null until known.
  const [live, setLive] = useState<number | null>(null);

  useEffect(() => {
    onStatus(study ? { problems: count, revision: draft.revision, slug: study.slug } : null);
  }, [onStatus, study, count, draft.revision]);
  useEffect(() => () => onStatus(null), [onStatus]);

  // Its newest published version (0: never published), asked again after a publish or a revert.
  useEffect(() => {
    const controller = new AbortController();
    listCaseStudies(controller.signal).then(
      (states) => {
        const state = states.find((s) => s.project === project);
        setLive(state?.placeholder ? -1 : (state?.version ?? 0));
      },
      () => {},
    );
    return () => controller.abort();
  }, [project, published]);

  useSaveShortcut(flush);

  const list = useCallback((signal?: AbortSignal) => listCaseStudyVersions(project, signal), [project]);
  const revert = useCallback((n: number) => revertCaseStudy(project, n), [project]);
  const publish = useCallback(() => publishCaseStudy(project), [project]);

  const back = (
    <a
      href="?view=page&part=projects"
      className="link text-sm"
      onClick={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      Back to the projects
    </a>
  );

  const heading = `Case study: ${title || 'untitled project'}`;
  if (draft.loadError) {
    return (
      <Group title={heading}>
        <p role="alert" className="field-error">
          The case study could not be opened: {draft.loadError}
        </p>
        <div className="flex flex-wrap items-center gap-4">
          <button type="button" className="btn btn-secondary" onClick={() => void draft.reload()}>
            Try again
          </button>
          {back}
        </div>
      </Group>
    );
  }
  if (!study) {
    return (
      <Group title={heading}>
        <p role="status" className="text-gray-400">
          Loading the case study…
        </p>
      </Group>
    );
  }

  return (
    <Group title={heading}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {back}
        <SaveStatus draft={draft} />
        <p className="text-sm text-gray-300">
          {live === null ? '' : live === -1 ? "The placeholder's example: publish it to make it yours" : live === 0 ? 'Not published yet' : `Published: version ${live}`}
        </p>
        <div className="ms-auto flex flex-wrap items-center gap-x-4">
          <ScheduleButton
            schedule={(at) => publishCaseStudy(project, at)}
            what="case study"
            until="visitors see the case study as it is live now"
            saveFirst={flush}
            explain={caseStudyFailure}
            onScheduled={() => setPublished((n) => n + 1)}
          />
          <PublishButton
            saveFirst={flush}
            publish={publish}
            explain={caseStudyFailure}
            label="Publish the case study"
            title="Publish the case study?"
            confirmLabel="Publish the case study now"
            onPublished={() => setPublished((n) => n + 1)}
          />
        </div>
      </div>
      <Notices draft={draft} />
      <ProblemSummary
        paths={Object.keys(problems)}
        href={(path) => `#${fieldId(path)}`}
        label={(path) => translationPlace(study, path) ?? placeOf(path, 'Case study')}
        onGo={(path) => {
          const field = window.document.getElementById(fieldId(path));
          field?.focus();
          field?.scrollIntoView({ block: 'center' });
        }}
      />
      <form
        aria-label="Case study"
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void flush();
        }}
      >
        <CaseStudyFields study={study} problems={problems} edit={draft.edit} />
        <CaseStudyTranslations study={study} languages={languages} sourceTag={sourceTag} problems={problems} edit={draft.edit} />
      </form>
      <VersionsPart
        generation={`${draft.revision}-${published}`}
        list={list}
        revert={revert}
        explain={caseStudyFailure}
        title="Versions of the case study"
        level={3}
        none="Nothing published yet: the project's card links to no case study."
        onReverted={() => {
          void draft.reload();
          setPublished((n) => n + 1);
        }}
      />
    </Group>
  );
}

interface FieldsProps {
  study: CaseStudy;
  problems: Problems;
  edit: Edit;
}

/** A text in Markdown: a plain textarea with a hint that says so. */
function MarkdownField({
  path,
  label,
  value,
  problems,
  required = true,
  onChange,
}: {
  path: string;
  label: string;
  value: string;
  problems: Problems;
  required?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      path={path}
      label={label}
      hint={required ? MARKDOWN_HINT : `Optional. ${MARKDOWN_HINT}`}
      multiline
      required={required}
      value={value}
      problem={problems[path]}
      onChange={onChange}
    />
  );
}

export function CaseStudyFields({ study, problems, edit }: FieldsProps) {
  const technologyProblem = Object.entries(problems).find(([path]) => path.startsWith('technologies'))?.[1];
  return (
    <>
      <Group title="Address and summary" level={3}>
        <TextField
          path="slug"
          label="Address"
          hint={`Shown at /projects/${study.slug}/. Made from the project's title when the case study was begun, and kept when the title changes; a changed address sends visitors of the old one to the new one.`}
          value={study.slug}
          problem={problems.slug}
          onChange={(v) => edit((d) => void (d.slug = v))}
        />
        <TextField
          path="summary"
          label="Summary"
          hint="One or two sentences under the title, also the page's description in search results and link previews."
          multiline
          value={study.summary}
          problem={problems.summary}
          onChange={(v) => edit((d) => void (d.summary = v))}
        />
      </Group>
      <Group title="The story" level={3}>
        <MarkdownField path="problem" label="The problem" value={study.problem} problems={problems} onChange={(v) => edit((d) => void (d.problem = v))} />
        <MarkdownField path="role" label="Your role" value={study.role} problems={problems} onChange={(v) => edit((d) => void (d.role = v))} />
        <MarkdownField path="team" label="The team" required={false} value={study.team} problems={problems} onChange={(v) => edit((d) => void (d.team = v))} />
        <MarkdownField
          path="constraints"
          label="Constraints"
          required={false}
          value={study.constraints}
          problems={problems}
          onChange={(v) => edit((d) => void (d.constraints = v))}
        />
        <MarkdownField path="outcome" label="The outcome" value={study.outcome} problems={problems} onChange={(v) => edit((d) => void (d.outcome = v))} />
      </Group>
      <Group title="Decisions" level={3}>
        <EditableList<Decision, CaseStudy>
          path="decisions"
          items={study.decisions}
          of={(d) => d.decisions}
          problems={problems}
          edit={edit}
          level={4}
          prefix={(i) => `Decision ${i + 1}`}
          label={(decision) => decision.title}
          name={(decision, i) => `decision ${decision.title || i + 1}`}
          fields={(decision, i) => (
            <>
              <TextField
                path={`decisions[${i}].title`}
                label="Decision"
                value={decision.title}
                problem={problems[`decisions[${i}].title`]}
                onChange={(v) => edit((d) => void (d.decisions[i]!.title = v))}
              />
              <MarkdownField
                path={`decisions[${i}].why`}
                label="Why"
                value={decision.why}
                problems={problems}
                onChange={(v) => edit((d) => void (d.decisions[i]!.why = v))}
              />
            </>
          )}
          add="Add a decision"
          create={(): Decision => ({ title: '', why: '' })}
          firstField="title"
        />
      </Group>
      <Group title="Figures" level={3}>
        <p className="text-sm text-gray-400">The outcome in numbers, each with what it measures: 38 % faster checkout.</p>
        <EditableList<Figure, CaseStudy>
          path="figures"
          items={study.figures}
          of={(d) => d.figures}
          problems={problems}
          edit={edit}
          level={4}
          prefix={(i) => `Figure ${i + 1}`}
          label={(figure) => [Number.isFinite(figure.value) ? String(figure.value) : '', figure.unit, figure.label].filter(Boolean).join(' ')}
          name={(figure, i) => `figure ${figure.label || i + 1}`}
          fields={(figure, i) => <FigureFields figure={figure} i={i} problems={problems} edit={edit} />}
          add="Add a figure"
          create={(): Figure => ({ value: 0, unit: '', label: '' })}
          firstField="value"
        />
      </Group>
      <Group title="Gallery" level={3}>
        <Gallery study={study} problems={problems} edit={edit} />
      </Group>
      <Group title="Links and technologies" level={3}>
        <EditableList<CaseLink, CaseStudy>
          path="links"
          items={study.links}
          of={(d) => d.links}
          problems={problems}
          edit={edit}
          level={4}
          prefix={(i) => `Link ${i + 1}`}
          label={(link) => link.label}
          name={(link, i) => `link ${link.label || i + 1}`}
          fields={(link, i) => (
            <div className="grid gap-4 md:grid-cols-2">
              <SelectField
                path={`links[${i}].kind`}
                label="Kind"
                value={link.kind}
                options={KINDS}
                problem={problems[`links[${i}].kind`]}
                onChange={(v) => edit((d) => void (d.links[i]!.kind = v as CaseLinkKind))}
              />
              <TextField
                path={`links[${i}].label`}
                label="Label"
                value={link.label}
                problem={problems[`links[${i}].label`]}
                onChange={(v) => edit((d) => void (d.links[i]!.label = v))}
              />
              <div className="md:col-span-2">
                <TextField
                  path={`links[${i}].url`}
                  label="Link address"
                  type="url"
                  value={link.url}
                  problem={problems[`links[${i}].url`]}
                  onChange={(v) => edit((d) => void (d.links[i]!.url = v))}
                />
              </div>
            </div>
          )}
          add="Add a link"
          create={(): CaseLink => ({ kind: 'code', label: '', url: 'https://' })}
          firstField="kind"
        />
        <TechnologiesField
          path="technologies"
          technologies={study.technologies}
          problem={technologyProblem}
          onChange={(list) => edit((d) => void (d.technologies = list))}
        />
      </Group>
    </>
  );
}

/** A figure: its number (kept as typed while it is not one, and then a problem), its unit and what it measures. */
function FigureFields({ figure, i, problems, edit }: { figure: Figure; i: number; problems: Problems; edit: Edit }) {
  const p = `figures[${i}]`;
  const [text, setText] = useState(Number.isFinite(figure.value) ? String(figure.value) : '');
  const shown = Number(text.trim().replace(',', '.')) === figure.value && text.trim() !== '' ? text : Number.isFinite(figure.value) ? String(figure.value) : text;
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <TextField
        path={`${p}.value`}
        label="Number"
        hint="Digits, with a point for decimals: 38, 1.5"
        value={shown}
        problem={problems[`${p}.value`]}
        onChange={(v) => {
          setText(v);
          const number = v.trim() === '' ? Number.NaN : Number(v.trim().replace(',', '.'));
          edit((d) => void (d.figures[i]!.value = number));
        }}
      />
      <TextField
        path={`${p}.unit`}
        label="Unit"
        hint="%, ms, ×, k users (optional)"
        required={false}
        value={figure.unit}
        problem={problems[`${p}.unit`]}
        onChange={(v) => edit((d) => void (d.figures[i]!.unit = v))}
      />
      <TextField
        path={`${p}.label`}
        label="What it measures"
        value={figure.label}
        problem={problems[`${p}.label`]}
        onChange={(v) => edit((d) => void (d.figures[i]!.label = v))}
      />
    </div>
  );
}

/**
 * The gallery: each picture with its image (replaced by an upload), its description for people who
 * cannot see it and its caption, reordered like any list; a new picture is added by uploading it.
 */
function Gallery({ study, problems, edit }: FieldsProps) {
  const keys = useListKeys(study.gallery.length);
  const uploadId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const full = study.gallery.length >= 12;
  // A picture just uploaded: its description is asked for next, once it is drawn.
  const uploaded = useRef<number | null>(null);
  useEffect(() => {
    const index = uploaded.current;
    const picture = index === null ? undefined : study.gallery[index];
    if (!picture) return;
    uploaded.current = null;
    const media = study.media.findIndex((m) => m.id === picture.image);
    window.document.getElementById(fieldId(`media[${media}].alt`))?.focus();
  });

  async function onFile(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const upload = await uploadImage(file);
      uploaded.current = study.gallery.length;
      edit((d) => {
        const id = addUpload(d, upload, '');
        d.gallery.push({ image: id, caption: '' });
      });
    } catch (cause) {
      setProblem(uploadProblem(cause, 'image'));
    } finally {
      setBusy(false);
    }
  }

  const listProblem = problems.gallery ?? problems.media;
  return (
    <>
      {listProblem && <p className="field-error">{listProblem}</p>}
      {study.gallery.length === 0 && <p className="text-sm text-gray-400">No pictures yet.</p>}
      <SortableList
        keys={keys.keys}
        name={(i) => `picture ${i + 1}`}
        className="space-y-3"
        onMove={(from, to) => {
          keys.move(from, to);
          edit((d) => moveItem(d.gallery, from, to));
        }}
      >
        {(i, _key, handle) => {
          const picture = study.gallery[i]!;
          const p = `gallery[${i}]`;
          return (
            <section aria-labelledby={`${fieldId(p)}-heading`} className="rounded-lg border border-gray-800 bg-gray-950/40">
              <div className="flex items-center gap-1 p-1">
                {handle}
                <h4 id={`${fieldId(p)}-heading`} className="min-w-0 flex-1 px-2 text-base font-semibold text-white">
                  Picture {i + 1}
                </h4>
                <button
                  type="button"
                  className="btn btn-ghost size-11 shrink-0 p-0 text-red-300"
                  aria-label={`Remove picture ${i + 1}`}
                  onClick={() => {
                    keys.remove(i);
                    edit((d) => {
                      d.gallery.splice(i, 1);
                      pruneCaseStudyMedia(d);
                    });
                  }}
                >
                  <Trash2 aria-hidden="true" className="size-5" />
                </button>
              </div>
              <div className="space-y-4 border-t border-gray-800 p-4">
                <ImageField<CaseStudy>
                  path={`${p}.image`}
                  label={`Picture ${i + 1}`}
                  document={study}
                  mediaId={picture.image}
                  problems={problems}
                  edit={edit}
                  prune={pruneCaseStudyMedia}
                  onPoint={(d, id) => void (d.gallery[i]!.image = id)}
                />
                <TextField
                  path={`${p}.caption`}
                  label="Caption"
                  hint="Shown under the picture (optional)."
                  required={false}
                  value={picture.caption}
                  problem={problems[`${p}.caption`]}
                  onChange={(v) => edit((d) => void (d.gallery[i]!.caption = v))}
                />
              </div>
            </section>
          );
        }}
      </SortableList>
      <div>
        <label htmlFor={uploadId} className="field-label">
          Add a picture to the gallery
        </label>
        <input
          id={uploadId}
          type="file"
          accept="image/*"
          disabled={busy || full}
          aria-describedby={`${uploadId}-hint${problem ? ` ${uploadId}-error` : ''}`}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => {
            void onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          className="block w-full text-sm text-gray-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border-0 file:bg-gray-800 file:px-4 file:text-gray-100"
        />
        <p id={`${uploadId}-hint`} className="mt-1.5 text-sm text-gray-400">
          {full ? 'The gallery is full: 12 pictures at most.' : 'JPEG, PNG, WebP, GIF or SVG, re-encoded by the server. Up to 12 pictures.'}
        </p>
        {busy && (
          <p role="status" className="mt-1.5 text-sm text-gray-400">
            Uploading…
          </p>
        )}
        {problem && (
          <p id={`${uploadId}-error`} role="alert" className="field-error">
            {problem}
          </p>
        )}
      </div>
    </>
  );
}
