/**
 * The dashboard's Page tab: the content document as forms, checked as the server checks it,
 * saved as the draft (with `If-Match`, so another tab's save is never overwritten), previewed,
 * published, and reverted. Loaded lazily: neither `/` nor the inbox downloads it (nor Ajv's code).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { fieldId } from './fields';
import { PreviewFrame } from './preview-frame';
import { ProfileForm } from './profile-form';
import { ProjectsForm } from './projects-form';
import { SkillsForm } from './skills-form';
import { SocialForm } from './social-form';
import { TimelineForm } from './timeline-form';
import { PublishPanel } from './publish-panel';
import { ResumeField } from './resume-field';
import { useDraft } from './use-draft';

export function PageEditor({ onUnauthorized }: { onUnauthorized: () => void }) {
  const draft = useDraft(onUnauthorized);
  const [generation, setGeneration] = useState(0);
  const [saveStatus, setSaveStatus] = useState<string | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const { document, problems, save, reload } = draft;
  const problemList = Object.entries(problems);

  const saveNow = useCallback(async (): Promise<boolean> => {
    setSaveStatus(null);
    const outcome = await save();
    if (outcome === 'saved') {
      setSaveStatus('Draft saved. Visitors see it once you publish.');
      setGeneration((g) => g + 1);
    }
    if (outcome === 'invalid') requestAnimationFrame(() => summaryRef.current?.focus());
    return outcome === 'saved';
  }, [save]);

  // Ctrl+S / Cmd+S saves, as in any editor.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [saveNow]);

  if (draft.loadError) {
    return (
      <div className="container-page py-8">
        <h1 className="text-heading font-bold text-white">Page</h1>
        <p role="alert" className="field-error">
          The draft could not be loaded: {draft.loadError}
        </p>
        <button type="button" className="btn btn-secondary mt-4" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!document) {
    return (
      <div className="container-page py-8">
        <h1 className="text-heading font-bold text-white">Page</h1>
        <p role="status" className="mt-2 text-gray-400">
          Loading the draft…
        </p>
      </div>
    );
  }

  const { recovery } = draft;
  return (
    <div className="container-page py-6 md:py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-heading font-bold text-white">Page</h1>
          <p className="text-sm text-gray-400">
            Edit what your page says. Saving keeps a draft; visitors see it once you publish.
          </p>
        </div>
      </div>

      <div className="mt-4 space-y-3">
        {recovery?.kind === 'restored' && (
          <div role="status" className="flex flex-wrap items-center gap-3 rounded-lg border border-blue-800 bg-blue-950/50 p-3 text-sm text-blue-100">
            <p>Your unsaved changes from before the page was reloaded are restored. Save the draft to keep them.</p>
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
        {draft.conflict && (
          <div role="alert" className="rounded-lg border border-amber-700 bg-amber-950/50 p-3 text-sm text-amber-100">
            <p className="font-semibold">Not saved: this draft was changed elsewhere, in another tab or on another device.</p>
            <p className="mt-1">
              Nothing was overwritten. Load the newer draft to see it (your changes here are replaced), then make your change
              again.
            </p>
            <button type="button" className="btn btn-secondary mt-2 px-3" onClick={() => void reload()}>
              Load the newer draft
            </button>
          </div>
        )}
        <div ref={summaryRef} tabIndex={-1} role={problemList.length > 0 ? 'alert' : undefined}>
          {problemList.length > 0 && (
            <div className="rounded-lg border border-red-800 bg-red-950/40 p-3 text-sm text-red-100">
              <p className="font-semibold">
                Not saved: {problemList.length === 1 ? 'one field needs' : `${problemList.length} fields need`} attention.
              </p>
              <ul className="mt-1 list-disc pl-5">
                {problemList.slice(0, 12).map(([path, problem]) => (
                  <li key={path}>
                    <a
                      className="link text-red-100"
                      href={`#${fieldId(path)}`}
                      onClick={(event) => {
                        // Focus the field itself (the address keeps the dashboard's view).
                        const field = window.document.getElementById(fieldId(path));
                        if (!field) return;
                        event.preventDefault();
                        field.focus();
                        field.scrollIntoView({ block: 'center' });
                      }}
                    >
                      {path}: {problem}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <form
          aria-label="Page content"
          noValidate
          className="space-y-6"
          onSubmit={(event) => {
            event.preventDefault();
            void saveNow();
          }}
        >
          <ProfileForm document={document} problems={problems} edit={draft.edit} />
          <SocialForm document={document} problems={problems} edit={draft.edit} />
          <SkillsForm document={document} problems={problems} edit={draft.edit} />
          <ProjectsForm document={document} problems={problems} edit={draft.edit} />
          <TimelineForm list="experience" document={document} problems={problems} edit={draft.edit} />
          <TimelineForm list="education" document={document} problems={problems} edit={draft.edit} />
          <ResumeField path={document.resume.path} />
          <div className="sticky bottom-0 z-10 -mx-2 flex flex-wrap items-center gap-3 rounded-t-xl border-t border-gray-800 bg-gray-950/95 p-3 backdrop-blur">
            <button type="submit" className="btn btn-primary" disabled={draft.saving}>
              {draft.saving ? 'Saving…' : 'Save draft'}
            </button>
            <p aria-live="polite" className="text-sm text-gray-300">
              {draft.saveError ? (
                <span className="text-red-300">Not saved: {draft.saveError}</span>
              ) : draft.dirty ? (
                'Unsaved changes'
              ) : (
                saveStatus ?? `Draft revision ${draft.revision}, saved.`
              )}
            </p>
          </div>
        </form>
        <aside className="space-y-6 lg:sticky lg:top-20 lg:self-start" aria-label="Publish and preview">
          <PublishPanel
            dirty={draft.dirty}
            saveFirst={async () => !draft.dirty || (await saveNow())}
            onPublished={() => setGeneration((g) => g + 1)}
            onReverted={() => {
              void reload().then(() => setGeneration((g) => g + 1));
            }}
            onUnauthorized={onUnauthorized}
          />
          <PreviewFrame generation={generation} />
        </aside>
      </div>
    </div>
  );
}
