/** Publishing the draft, the kept versions, and reverting to one (each asked first). */
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { listVersions, publishDraft, revertTo, type Version } from '../../api/content';
import { ConfirmDialog } from './confirm-dialog';

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function PublishPanel({
  dirty,
  saveFirst,
  onPublished,
  onReverted,
  onUnauthorized,
}: {
  dirty: boolean;
  /** Saves the edits; true when they are saved (or there were none). */
  saveFirst: () => Promise<boolean>;
  onPublished: () => void;
  onReverted: () => void;
  onUnauthorized: () => void;
}) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [asking, setAsking] = useState<'publish' | number | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const fail = useCallback(
    (cause: unknown) => {
      if (cause instanceof ApiError && cause.status === 401) onUnauthorized();
      else setError(cause instanceof Error ? cause.message : String(cause));
    },
    [onUnauthorized],
  );

  const refresh = useCallback(
    (signal?: AbortSignal) =>
      listVersions(signal).then(setVersions, (cause: unknown) => {
        if (!signal?.aborted) fail(cause);
      }),
    [fail],
  );
  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);

  async function publish() {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      if (!(await saveFirst())) {
        setError('The draft was not published: save it first (see the problems above).');
        return;
      }
      const version = await publishDraft();
      setStatus(`Published version ${version.version}. Visitors now see it.`);
      onPublished();
      await refresh();
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  }

  async function revert(n: number) {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      const version = await revertTo(n);
      setStatus(`Version ${n} is published again, as version ${version.version}, and is the draft.`);
      onReverted();
      await refresh();
    } catch (cause) {
      fail(cause);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="publish-title" className="rounded-xl border border-gray-800 bg-gray-900/40 p-4">
      <h2 id="publish-title" className="text-xl font-bold text-white">
        Publish
      </h2>
      <p className="mt-1 text-sm text-gray-400">
        Visitors see the published version. {dirty ? 'Your unsaved changes are saved first.' : ''}
      </p>
      <button type="button" className="btn btn-primary mt-3" disabled={busy} onClick={() => setAsking('publish')}>
        Publish
      </button>
      <div aria-live="polite">
        {status && (
          <p role="status" className="mt-3 text-sm text-emerald-300">
            {status}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}

      <h3 className="mt-6 text-base font-semibold text-white">Versions</h3>
      {versions === null ? (
        <p className="mt-2 text-sm text-gray-400">Loading…</p>
      ) : versions.length === 0 ? (
        <p className="mt-2 text-sm text-gray-400">Nothing published yet: visitors see the default content.</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
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
                  {k === 0 && <span className="tag ml-2">live</span>}
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
        open={asking === 'publish'}
        title="Publish the draft?"
        confirmLabel="Publish now"
        onConfirm={() => void publish()}
        onClose={() => setAsking((a) => (a === 'publish' ? null : a))}
      >
        <p>Visitors will see the draft as it is{dirty ? ', with your unsaved changes saved first' : ''}.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={typeof asking === 'number'}
        title={typeof asking === 'number' ? `Revert to version ${asking}?` : 'Revert?'}
        confirmLabel="Revert"
        onConfirm={() => typeof asking === 'number' && void revert(asking)}
        onClose={() => setAsking((a) => (typeof a === 'number' ? null : a))}
      >
        <p>
          Its content is published again as a new version and becomes the draft.
          {dirty ? ' Your unsaved changes here are discarded.' : ''}
        </p>
      </ConfirmDialog>
    </section>
  );
}
