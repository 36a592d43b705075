/**
 * The dashboard's Page tab: the content document as one part at a time (a list of the parts, each
 * at its own address), checked as the server checks it and saved as the owner types (with
 * `If-Match`, so another tab's save is merged, never overwritten), previewed beside the form at a
 * phone's or a desktop's width, published, and reverted. Loaded lazily: neither `/` nor the inbox
 * downloads it (nor Ajv's code, nor dnd-kit's).
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useMediaQuery } from '../../components/use-media-query';
import { AppearancePart } from './appearance-form';
import type { CaseStudyStatus } from './case-study-editor';
import { CaseStudyPreview } from './case-study-preview';
import { LanguagesPart } from './languages-form';
import { defaultTag, languagesOf } from './translations';
import { fieldId } from '../shared/draft/fields';
import { countByPart, DEFAULT_PART, isPart, partLabel, partOf, previewAnchor, type PartId } from './parts';
import { placeOf } from './problem-count';
import { PreviewFrame } from '../shared/draft/preview-frame';
import { AboutPart, ContactPart, PhrasesPart, ProfilePart } from './profile-form';
import { ProjectsForm } from './projects-form';
import { VersionsPart } from '../shared/draft/publish-panel';
import { ResumePart } from './resume-form';
import type { SaveOutcome } from '../shared/draft/use-draft-sync';
import { DraftBar, usePublished } from './draft-bar';
import { SectionNav } from './section-nav';
import { SkillsForm } from './skills-form';
import { FooterPart } from './section-words';
import { SocialForm } from './social-form';
import { TimelineForm } from './timeline-form';
import { useDraft } from './use-draft';
import { useSaveShortcut } from '../shared/draft/use-save-shortcut';
import { Notices, ProblemSummary } from '../shared/draft/draft-notices';
import type { ListFormProps } from './list-form-parts';

// A case study's editor is a chunk of its own (its schema's validator inside), loaded when one is opened.
const CaseStudyEditor = lazy(() => import('./case-study-editor'));

function PartForm({
  part,
  props,
  save,
  reload,
}: {
  part: PartId;
  props: ListFormProps;
  save: () => Promise<SaveOutcome>;
  reload: () => Promise<void>;
}) {
  switch (part) {
    case 'profile':
      return <ProfilePart {...props} />;
    case 'phrases':
      return <PhrasesPart {...props} />;
    case 'about':
      return <AboutPart {...props} />;
    case 'contact':
      return <ContactPart {...props} />;
    case 'links':
      return <SocialForm {...props} />;
    case 'skills':
      return <SkillsForm {...props} />;
    case 'projects':
      return <ProjectsForm {...props} />;
    case 'experience':
    case 'education':
      // Keyed: the jobs' open items and keys are not the schools'.
      return <TimelineForm key={part} list={part} {...props} />;
    case 'footer':
      return <FooterPart {...props} />;
    case 'resume':
      return <ResumePart {...props} save={save} reload={reload} />;
    case 'languages':
      return <LanguagesPart {...props} />;
    case 'appearance':
      return <AppearancePart {...props} />;
    case 'versions':
      return null;
  }
}

export function PageEditor() {
  const draft = useDraft();
  const [params, setParams] = useSearchParams();
  const asked = params.get('part');
  const part: PartId = isPart(asked) ? asked : DEFAULT_PART;
  // A project's case study, opened from its project (`&case=<project id>`).
  const caseProject = part === 'projects' ? params.get('case') : null;
  const [caseStatus, setCaseStatus] = useState<CaseStudyStatus | null>(null);
  const [published, setPublished] = useState(0);
  // The preview sits beside the form from 1280 px; narrower, it is shown on request, above the form.
  const wide = useMediaQuery('(min-width: 1280px)');
  const [previewShown, setPreviewShown] = useState(false);
  const live = usePublished();
  const { document, problems, flush } = draft;
  const counts = useMemo(() => (document ? countByPart(problems, document) : {}), [problems, document]);

  // The preview shows each saved revision, and is loaded again after a publish.
  const generation = `${draft.revision}-${published}`;

  // Focus goes to a part's heading after its link in the list, or to a field after a problem's or
  // a change's link (a field in a folded item is not shown: its part's heading then), once that
  // part is shown.
  const focusNext = useRef<{ part: PartId; id?: string } | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (target?.part !== part) return;
    const field = target.id ? window.document.getElementById(target.id) : null;
    const heading = !field;
    const element = field ?? window.document.querySelector<HTMLElement>('#editor-part h2');
    if (!element) return;
    focusNext.current = null;
    // A field folded away (a section's heading and lead) is unfolded first.
    const folded = field?.closest('details');
    if (folded) folded.open = true;
    if (heading) element.tabIndex = -1;
    element.focus();
    if (!heading) element.scrollIntoView({ block: 'center' });
  });

  const goTo = useCallback(
    (path: string, part?: PartId) => {
      if (!document) return;
      const to = part ?? partOf(path, document);
      focusNext.current = { part: to, id: part ? undefined : fieldId(path) };
      setParams({ view: 'page', part: to });
    },
    [document, setParams],
  );

  useSaveShortcut(flush);

  if (draft.loadError) {
    return (
      <Shell>
        <p role="alert" className="field-error">
          The draft could not be loaded: {draft.loadError}
        </p>
        <button type="button" className="btn btn-secondary mt-4" onClick={() => void draft.reload()}>
          Try again
        </button>
      </Shell>
    );
  }
  if (!document) {
    return (
      <Shell>
        <p role="status" className="text-gray-400">
          Loading the draft…
        </p>
      </Shell>
    );
  }

  const scheme = document.appearance.scheme === 'light' ? 'light' : 'dark';
  const languages = [defaultTag(document), ...languagesOf(document).map((language) => language.tag)];
  const caseTitle = caseProject ? (document.projects.find((p) => p.id === caseProject)?.title ?? caseProject) : '';
  const preview = caseProject ? (
    <CaseStudyPreview
      project={caseProject}
      slug={caseStatus?.slug ?? ''}
      revision={caseStatus?.revision ?? 0}
      pageGeneration={generation}
      scheme={scheme}
      languages={languages}
    />
  ) : (
    <PreviewFrame generation={generation} anchor={previewAnchor(part)} scheme={scheme} languages={languages} />
  );
  return (
    // The bar's padding makes up the top of the shell's, so that the heading stays where it was while loading.
    <div className="container-page pt-4 pb-6 md:pt-6 md:pb-8">
      <DraftBar
        draft={draft}
        published={live}
        heading={HEADING}
        onPublished={() => {
          setPublished((n) => n + 1);
          void live.refresh();
        }}
        // A field removed from the draft has no field to show: its part's heading is focused.
        onOpen={(change) => goTo(change.path, change.kind === 'removed' ? change.part : undefined)}
      />
      <Notices draft={draft} />
      <ProblemSummary
        className="mt-3"
        paths={Object.keys(problems)}
        href={(path) => `?view=page&part=${partOf(path, document)}`}
        label={(path) => placeOf(path, partLabel(partOf(path, document)))}
        onGo={(path) => goTo(path)}
      />

      <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-[10rem_minmax(0,1fr)] xl:grid-cols-[10rem_minmax(0,1fr)_minmax(18rem,20rem)]">
        <SectionNav
          part={part}
          counts={counts}
          onOpen={(id) => (focusNext.current = { part: id })}
          caseStudy={caseProject ? { project: caseProject, label: `Case study: ${caseTitle}`, problems: caseStatus?.problems ?? 0 } : undefined}
        />
        <div className="min-w-0">
          {!wide && (
            <div className="mb-4">
              <button
                type="button"
                className="btn btn-secondary"
                aria-expanded={previewShown}
                aria-controls="editor-preview"
                onClick={() => setPreviewShown((shown) => !shown)}
              >
                {previewShown ? 'Hide preview' : 'Show preview'}
              </button>
              <aside id="editor-preview" aria-label="Preview" hidden={!previewShown} className="mt-4">
                {previewShown && preview}
              </aside>
            </div>
          )}
          <div id="editor-part">
            {part === 'versions' ? (
              <VersionsPart
                generation={generation}
                onReverted={() => {
                  void draft.reload();
                  void live.refresh();
                }}
              />
            ) : caseProject ? (
              // Its chunk is small and says itself that it loads the case study.
              <Suspense fallback={null}>
                <CaseStudyEditor
                  key={caseProject}
                  project={caseProject}
                  title={caseTitle}
                  languages={languagesOf(document)}
                  sourceTag={defaultTag(document)}
                  onStatus={setCaseStatus}
                  onClose={() => {
                    focusNext.current = { part: 'projects' };
                    setParams({ view: 'page', part: 'projects' });
                  }}
                />
              </Suspense>
            ) : (
              <form
                aria-label="Page content"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  void flush();
                }}
              >
                <PartForm part={part} props={{ document, problems, edit: draft.edit }} save={draft.save} reload={draft.reload} />
              </form>
            )}
          </div>
        </div>
        {wide && (
          <aside aria-label="Preview" className="sticky top-(--below-bar) self-start">
            {preview}
          </aside>
        )}
      </div>
    </div>
  );
}

/** The Page tab's frame: the dashboard's container and the heading where it stays once the draft is loaded. */
const SHELL = 'container-page py-6 md:py-8';
const HEADING = <h1 className="text-heading font-bold text-white">Page</h1>;

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className={SHELL}>
      <div className="flex min-h-11 items-center">{HEADING}</div>
      <div className="mt-4">{children}</div>
    </div>
  );
}
