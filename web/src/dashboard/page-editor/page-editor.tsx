/**
 * The dashboard's Page tab: the content document as one part at a time (a list of the parts, each
 * at its own address), checked as the server checks it and saved as the owner types (with
 * `If-Match`, so another tab's save is merged, never overwritten), previewed beside the form at a
 * phone's or a desktop's width, published, and reverted. Loaded lazily: neither `/` nor the inbox
 * downloads it (nor Ajv's code, nor dnd-kit's).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useMediaQuery } from '../../components/use-media-query';
import { AppearancePart } from './appearance-form';
import { LanguagesPart } from './languages-form';
import { defaultTag, languagesOf } from './translations';
import { fieldId } from './fields';
import { countByPart, DEFAULT_PART, isPart, partLabel, partOf, previewAnchor, type PartId } from './parts';
import { placeOf } from './problem-count';
import { PreviewFrame } from './preview-frame';
import { AboutPart, ContactPart, PhrasesPart, ProfilePart } from './profile-form';
import { ProjectsForm } from './projects-form';
import { VersionsPart } from './publish-panel';
import { ResumeField } from './resume-field';
import { DraftBar, usePublished } from './draft-bar';
import { SectionNav } from './section-nav';
import { SkillsForm } from './skills-form';
import { FooterPart } from './section-words';
import { SocialForm } from './social-form';
import { TimelineForm } from './timeline-form';
import { useDraft, type DraftState } from './use-draft';
import type { ListFormProps } from './list-form-parts';

function PartForm({ part, props }: { part: PartId; props: ListFormProps }) {
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
      return <ResumeField path={props.document.resume.path} />;
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

  // Ctrl+S / Cmd+S saves at once, as in any editor.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void flush();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [flush]);

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

  const problemList = Object.entries(problems);
  const preview = (
    <PreviewFrame
      generation={generation}
      anchor={previewAnchor(part)}
      scheme={document.appearance.scheme === 'light' ? 'light' : 'dark'}
      languages={[defaultTag(document), ...languagesOf(document).map((language) => language.tag)]}
    />
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
      {problemList.length > 0 && (
        <div className="mt-3 rounded-lg border border-red-800 bg-red-950/40 p-3 text-sm text-red-100">
          <p className="font-semibold">
            Not saved until {problemList.length === 1 ? 'one field is' : `${problemList.length} fields are`} fixed:
          </p>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {problemList.slice(0, 8).map(([path]) => (
              <li key={path}>
                <a
                  className="link text-red-100"
                  href={`?view=page&part=${partOf(path, document)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    goTo(path);
                  }}
                >
                  {placeOf(path, partLabel(partOf(path, document)))}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-[10rem_minmax(0,1fr)] xl:grid-cols-[10rem_minmax(0,1fr)_minmax(18rem,20rem)]">
        <SectionNav part={part} counts={counts} onOpen={(id) => (focusNext.current = { part: id })} />
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
            ) : (
              <form
                aria-label="Page content"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  void flush();
                }}
              >
                <PartForm part={part} props={{ document, problems, edit: draft.edit }} />
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

/** What the owner has to choose: edits from before a reload, or places changed here and elsewhere. */
function Notices({ draft }: { draft: DraftState }) {
  const { recovery, conflict } = draft;
  return (
    <div className="space-y-3 empty:hidden [&:not(:empty)]:mt-3">
      {recovery?.kind === 'restored' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-blue-800 bg-blue-950/50 p-3 text-sm text-blue-100">
          <p>Changes you made before the page was reloaded had not been saved. They are shown here.</p>
          <button type="button" className="btn btn-secondary px-3" onClick={draft.keepRestored}>
            Keep and save them
          </button>
          <button type="button" className="btn btn-ghost px-3" onClick={draft.discardUnsaved}>
            Discard them
          </button>
        </div>
      )}
      {recovery?.kind === 'offered' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-700 bg-amber-950/50 p-3 text-sm text-amber-100">
          <p>
            Unsaved changes from before a reload were found, but the draft was saved elsewhere since they were made.
            Restoring them replaces what is shown with them.
          </p>
          <button type="button" className="btn btn-secondary px-3" onClick={draft.restoreOffered}>
            Restore my unsaved changes
          </button>
          <button type="button" className="btn btn-ghost px-3" onClick={draft.discardUnsaved}>
            Discard them
          </button>
        </div>
      )}
      {conflict && (
        <div role="alert" className="rounded-lg border border-amber-700 bg-amber-950/50 p-3 text-sm text-amber-100">
          <p className="font-semibold">Not saved: the draft was changed elsewhere too, in another tab or on another device.</p>
          <p className="mt-1">
            Nothing was overwritten. Both changed {conflict.clashes.map((c) => c || 'the whole draft').join(', ')}. Every other
            change, from here and from elsewhere, is kept. Which version of {conflict.clashes.length === 1 ? 'it' : 'them'} do
            you want?
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="button" className="btn btn-secondary px-3" onClick={() => draft.resolve('mine')}>
              Keep mine
            </button>
            <button type="button" className="btn btn-ghost px-3" onClick={() => draft.resolve('theirs')}>
              Take the other version
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
