/**
 * Publishing a post at a moment to come: the day and time asked in a dialog (a `datetime-local`
 * field), sent as typed (`?at=2026-12-24T09:00`) for the server to read in the owner's time zone,
 * then said as the moment the server answered, in the owner's own locale and time. Until then no
 * address shows the post.
 */
import { useId, useState } from 'react';
import { publishPost } from '../../api/posts';
import type { Version } from '../../api/content';
import { sessionEnded } from '../shared/session';
import { ConfirmDialog } from '../shared/draft/confirm-dialog';
import { momentText } from './standing';

export function ScheduleButton({
  id,
  saveFirst,
  explain,
  onScheduled,
}: {
  /** The post's id. */
  id: string;
  /** Saves what is not saved yet; true when the draft is saved. */
  saveFirst: () => Promise<boolean>;
  explain: (cause: unknown) => string | undefined;
  onScheduled: (version: Version) => void;
}) {
  const inputId = useId();
  const [asking, setAsking] = useState(false);
  const [at, setAt] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function schedule() {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      if (!(await saveFirst())) {
        setError('Not scheduled: the draft could not be saved (see its status).');
        return;
      }
      const version = await publishPost(id, at);
      setStatus(
        version.publishedAt > Date.now()
          ? `Scheduled for ${momentText(version.publishedAt)}. Until then, its address answers as if it were not published.`
          : `That moment has passed, so version ${version.version} is published now. Visitors see it.`,
      );
      onScheduled(version);
    } catch (cause) {
      if (!sessionEnded(cause)) setError(explain(cause) ?? (cause instanceof Error ? cause.message : String(cause)));
    } finally {
      setBusy(false);
    }
  }

  // Its parts are the bar's, as the Publish button's: the messages take a row of their own below it.
  return (
    <div className="contents">
      <div aria-live="polite" className="order-last basis-full text-sm">
        {status && (
          <p role="status" className="pb-1 text-emerald-300">
            {status}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="order-last basis-full pb-1 text-sm text-red-300">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => setAsking(true)}>
        Schedule
      </button>
      <ConfirmDialog
        open={asking}
        title="Publish the post later?"
        confirmLabel="Schedule the post"
        confirmDisabled={at === ''}
        onConfirm={() => void schedule()}
        onClose={() => setAsking(false)}
      >
        <label htmlFor={inputId} className="field-label">
          Publish on
        </label>
        <input
          id={inputId}
          type="datetime-local"
          className="field-input"
          value={at}
          required
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => setAt(event.target.value)}
        />
        <p id={`${inputId}-hint`} className="text-sm text-gray-400">
          The day and time are read in your site&apos;s time zone. Until then, the post&apos;s address answers as if it were not published; the draft as it is
          now is what it will show.
        </p>
      </ConfirmDialog>
    </div>
  );
}
