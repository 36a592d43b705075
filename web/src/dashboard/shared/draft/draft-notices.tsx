/** What the owner has to choose about a draft (the page's or a case study's): edits from before a reload, or places changed here and elsewhere. */
import type { DraftStateOf } from './use-draft-of';

export function Notices<T>({
  draft,
  name = (path) => path || 'the whole draft',
}: {
  draft: DraftStateOf<T>;
  /** A place changed on both sides as the owner reads it (its path by default). */
  name?: (path: string) => string;
}) {
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
            Nothing was overwritten. Both changed {conflict.clashes.map(name).join(', ')}. Every other
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

/** The fields that keep a draft from saving: how many, and a link to each of the first eight that goes to it. */
export function ProblemSummary({
  paths,
  className = '',
  href,
  label,
  onGo,
}: {
  paths: string[];
  className?: string;
  href: (path: string) => string;
  label: (path: string) => string;
  onGo: (path: string) => void;
}) {
  if (paths.length === 0) return null;
  return (
    <div className={`rounded-lg border border-red-800 bg-red-950/40 p-3 text-sm text-red-100 ${className}`}>
      <p className="font-semibold">Not saved until {paths.length === 1 ? 'one field is' : `${paths.length} fields are`} fixed:</p>
      <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {paths.slice(0, 8).map((path) => (
          <li key={path}>
            <a
              className="link text-red-100"
              href={href(path)}
              onClick={(event) => {
                event.preventDefault();
                onGo(path);
              }}
            >
              {label(path)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
