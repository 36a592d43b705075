/**
 * Publishing a draft (a post, the page, a case study) at a moment to come: the day and time asked
 * in a dialog (a `datetime-local` field), sent as typed (`?at=2026-12-24T09:00`) for the server to
 * read in the owner's time zone, then said as the moment the server answered, in the owner's own
 * locale and time. Until then visitors see what was published before.
 */
import { useId, useState } from 'react';
import { serverNow } from '../../../api/client';
import type { Version } from '../../../api/content';
import { momentText } from '../format';
import { AskedAction, useAction } from './asked-action';

export function ScheduleButton({
  schedule: send,
  what,
  until,
  saveFirst,
  explain,
  onScheduled,
}: {
  /** The request that publishes the draft at `at`, as the field gives it. */
  schedule: (at: string) => Promise<Version>;
  /** What is published: `post`, `page`, `case study`. */
  what: string;
  /** What visitors see until then, as the end of a sentence: `its address answers as if it were not published`. */
  until: string;
  /** Saves what is not saved yet; true when the draft is saved. */
  saveFirst: () => Promise<boolean>;
  explain?: (cause: unknown) => string | undefined;
  onScheduled: (version: Version) => void;
}) {
  const inputId = useId();
  const [at, setAt] = useState('');
  const action = useAction(explain);

  const schedule = () =>
    action.act(async () => {
      if (!(await saveFirst())) {
        action.setError('Not scheduled: the draft could not be saved (see its status).');
        return null;
      }
      const version = await send(at);
      onScheduled(version);
      return version.publishedAt > serverNow()
        ? `Scheduled for ${momentText(version.publishedAt)}. Until then, ${until}.`
        : `That moment has passed, so version ${version.version} is published now. Visitors see it.`;
    });

  return (
    <AskedAction
      action={action}
      label="Schedule"
      title={`Publish the ${what} later?`}
      confirmLabel={`Schedule the ${what}`}
      confirmDisabled={at === ''}
      onConfirm={() => void schedule()}
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
        The day and time are read in your site&apos;s time zone. Until then, {until}; the draft as it is now is what it will show.
      </p>
    </AskedAction>
  );
}
