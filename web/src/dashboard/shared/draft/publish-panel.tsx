/**
 * Publishing the draft (a button in the draft's bar, asked first) and the Versions part:
 * the kept versions, and reverting to one (asked first). The page's by default; a case study's
 * through the props that name its requests and words.
 */
import { useCallback, useEffect, useState } from 'react';
import { serverNow } from '../../../api/client';
import { listVersions, publishDraft, revertTo, type Version } from '../../../api/content';
import { AskedAction, useAction, useFailure } from './asked-action';
import { ConfirmDialog } from './confirm-dialog';
import { Group } from './fields';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PublishButton({
  saveFirst,
  onPublished,
  nothing,
  publish: send = publishDraft,
  explain,
  label = 'Publish',
  title = 'Publish the draft?',
  confirmLabel = 'Publish now',
}: {
  /** Saves what is not saved yet; true when the draft is saved. */
  saveFirst: () => Promise<boolean>;
  onPublished: (version: Version) => void;
  /** The id of what says there is nothing to publish (the live page shows the draft): the button is then disabled. */
  nothing?: string;
  /** The request that publishes (the page's draft by default). */
  publish?: () => Promise<Version>;
  /** A failure in the owner's words, when the server's own are not enough. */
  explain?: (cause: unknown) => string | undefined;
  label?: string;
  title?: string;
  confirmLabel?: string;
}) {
  const action = useAction(explain);

  const publish = () =>
    action.act(async () => {
      if (!(await saveFirst())) {
        action.setError('Not published: the draft could not be saved (see its status).');
        return null;
      }
      const version = await send();
      onPublished(version);
      return `Published version ${version.version}. Visitors now see it.`;
    });

  // Said once published, until the draft changes again.
  const [shownFor, setShownFor] = useState(nothing);
  if (shownFor !== nothing) {
    setShownFor(nothing);
    if (!nothing) action.setStatus(null);
  }

  return (
    <AskedAction
      action={action}
      label={label}
      primary
      disabled={!!nothing}
      describedBy={nothing}
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={() => void publish()}
    >
      <p>Visitors will see the draft as it is now.</p>
    </AskedAction>
  );
}

/** A version to come is `scheduled`; the newest of those past is `live`. */
function scheduledOrLive(version: Version, k: number, versions: Version[]): string | null {
  const now = serverNow();
  if (version.publishedAt > now) return 'scheduled';
  return k === versions.findIndex((v) => v.publishedAt <= now) ? 'live' : null;
}

export function VersionsPart({
  generation,
  onReverted,
  list = listVersions,
  revert: send = revertTo,
  explain,
  title = 'Versions',
  level = 2,
  none = 'Nothing published yet: visitors see the default content.',
  tagOf = scheduledOrLive,
}: {
  /** Changes when a version is published, to list it. */
  generation: string;
  /** Called with the version the revert published. */
  onReverted: (version: Version) => void;
  /** The request that lists the versions (the page's by default). */
  list?: (signal?: AbortSignal) => Promise<Version[]>;
  /** The request that publishes version `n` again (the page's by default). */
  revert?: (n: number) => Promise<Version>;
  /** A failure in the owner's words, when the server's own are not enough. */
  explain?: (cause: unknown) => string | undefined;
  title?: string;
  level?: 2 | 3;
  /** What is said while nothing was published. */
  none?: string;
  /** The tag beside a version (by default `scheduled` beside one to come, `live` beside the newest of the others), if any; the versions are the newest first. */
  tagOf?: (version: Version, index: number, versions: Version[]) => string | null;
}) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const { error, setError, fail } = useFailure(explain);

  const refresh = useCallback(
    (signal?: AbortSignal) =>
      list(signal).then(setVersions, (cause: unknown) => {
        if (!signal?.aborted) fail(cause);
      }),
    [fail, list],
  );
  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh, generation]);

  async function revert(n: number) {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      const version = await send(n);
      setStatus(`Version ${n} is published again, as version ${version.version}, and is the draft.`);
      onReverted(version);
      await refresh();
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group title={title} level={level}>
      <p className="text-sm text-gray-400">Visitors see the newest published version. Reverting publishes an earlier one again.</p>
      <div aria-live="polite">
        {status && (
          <p role="status" className="text-sm text-emerald-300">
            {status}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      {versions === null ? (
        <p className="text-sm text-gray-400">Loading…</p>
      ) : versions.length === 0 ? (
        <p className="text-sm text-gray-400">{none}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Published versions, newest first</caption>
          <thead>
            <tr className="text-gray-400">
              <th scope="col" className="py-1 font-medium">
                Version
              </th>
              <th scope="col" className="py-1 font-medium">
                Published
              </th>
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v, k) => (
              <tr key={v.version} className="border-t border-gray-800">
                <td className="py-1.5 text-gray-100">{v.version}</td>
                <td className="py-1.5 text-gray-300">
                  <time dateTime={new Date(v.publishedAt).toISOString()}>{DATE.format(v.publishedAt)}</time>
                  {tagOf(v, k, versions) && <span className="tag ml-2">{tagOf(v, k, versions)}</span>}
                </td>
                <td className="py-1.5 text-right">
                  {k > 0 && (
                    <button
                      type="button"
                      className="btn btn-ghost px-3"
                      disabled={busy}
                      onClick={() => setAsking(v.version)}
                      aria-label={`Revert to version ${v.version}`}
                    >
                      Revert
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <ConfirmDialog
        open={asking !== null}
        title={asking !== null ? `Revert to version ${asking}?` : 'Revert?'}
        confirmLabel="Revert"
        onConfirm={() => asking !== null && void revert(asking)}
        onClose={() => setAsking(null)}
      >
        <p>Its content is published again as a new version and becomes the draft.</p>
      </ConfirmDialog>
    </Group>
  );
}
