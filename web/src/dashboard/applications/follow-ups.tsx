/**
 * The follow-ups due: links opened and then quiet for their days, each with a follow-up drafted in
 * the link's language for the owner to edit and send to its recipient, or to snooze or dismiss.
 * A chunk of its own, fetched with the Applications tab; absent while none is due.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { sentence } from '../../api/problems';
import { dismissFollowUp, listFollowUps, sendFollowUp, snoozeFollowUp, type DueFollowUp, type FollowUpList } from '../../api/follow-ups';
import { sessionEnded } from '../shared/session';
import { fullDate } from '../shared/format';

const NOUNS = { subject: 'the subject', body: 'the message' };

const SNOOZES = [
  { days: 1, label: '1 day' },
  { days: 3, label: '3 days' },
  { days: 7, label: '1 week' },
  { days: 14, label: '2 weeks' },
];

/** A failed request in words: the server's message, or the error's. */
function said(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

export default function FollowUps({ onChanged }: { onChanged: () => void }) {
  const [list, setList] = useState<FollowUpList | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const load = useCallback(
    (signal?: AbortSignal) =>
      listFollowUps(signal).then(
        (next) => {
          setList(next);
          setError('');
        },
        (cause: unknown) => {
          if (cause instanceof DOMException && cause.name === 'AbortError') return;
          if (!sessionEnded(cause)) setError(said(cause));
        },
      ),
    [],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);
  const finished = (text: string) => {
    setDone(text);
    void load();
    onChanged();
  };
  const due = list?.followUps ?? [];
  return (
    <>
      <p role="status" className={done ? 'mt-4 rounded-xl border border-emerald-400/40 bg-emerald-950 p-4 text-emerald-100' : 'sr-only'}>
        {done}
      </p>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-300">
          Follow-ups could not be loaded: {error}
        </p>
      )}
      {list && due.length > 0 && (
        <section aria-labelledby="follow-ups-title" className="mt-8">
          <h2 id="follow-ups-title" className="text-lg font-semibold text-white">
            Follow-ups due
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-gray-300">
            These links were opened, then nothing came back: no message through them, no mail from their recipient. Each comes up once;
            the draft is in the link's language.
          </p>
          {!list.canSend && (
            <p className="mt-2 text-sm text-amber-200">Follow-ups are sent by e-mail: start the server with --smtp-url and --notify-email.</p>
          )}
          <ul className="mt-3 grid gap-3" aria-label="Follow-ups due">
            {due.map((item) => (
              <FollowUpItem key={item.linkId} item={item} canSend={list.canSend} replyAddress={list.replyAddress} onDone={finished} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function FollowUpItem({
  item,
  canSend,
  replyAddress,
  onDone,
}: {
  item: DueFollowUp;
  canSend: boolean;
  replyAddress: string | null;
  onDone: (text: string) => void;
}) {
  const id = useId();
  const [writing, setWriting] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  const [snooze, setSnooze] = useState(3);
  const formRef = useRef<HTMLFormElement>(null);
  const name = `${item.company}, ${item.role}`;
  // Each problem is beside its field; the first of them is focused, so its label and problem are read out.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [fields]);

  async function act(action: () => Promise<unknown>, text: string) {
    setBusy(true);
    setAlert('');
    try {
      await action();
      onDone(text);
    } catch (cause) {
      if (sessionEnded(cause)) return;
      if (cause instanceof ApiError && cause.status === 422 && Object.keys(cause.fields).length > 0) {
        setFields(Object.fromEntries(Object.entries(cause.fields).map(([field, problem]) => [field, sentence(field, problem, NOUNS[field as keyof typeof NOUNS])])));
      } else setAlert(said(cause));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setFields({});
    void act(
      () => sendFollowUp(item.linkId, String(data.get('subject') ?? ''), String(data.get('body') ?? '')),
      `Follow-up to ${item.recipientEmail} for ${name} is on its way.`,
    );
  }

  const problem = (field: string) =>
    fields[field] && (
      <p id={`${id}-${field}-error`} className="text-sm text-red-300">
        {fields[field]}
      </p>
    );
  const invalid = (field: string) => ({
    'aria-invalid': Boolean(fields[field]),
    'aria-describedby': fields[field] ? `${id}-${field}-error` : undefined,
  });

  return (
    <li className="rounded-xl border border-gray-800 bg-gray-900 p-4">
      <h3 className="font-semibold text-white">{name}</h3>
      <p className="mt-1 text-sm text-gray-300">
        First opened {fullDate(item.firstOpenedAt)}, quiet since. To <bdi dir="ltr">{item.recipientEmail}</bdi>.
      </p>
      {alert && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {alert}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <button
          type="button"
          className="btn btn-primary min-h-11 px-3 text-sm"
          aria-expanded={writing}
          aria-controls={`${id}-form`}
          onClick={() => setWriting(!writing)}
        >
          Write follow-up
        </button>
        <label className="grid gap-1 text-sm text-gray-200">
          Snooze for
          <select className="field-input min-h-11" value={snooze} onChange={(event) => setSnooze(Number(event.target.value))}>
            {SNOOZES.map(({ days, label }) => (
              <option key={days} value={days}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn-secondary min-h-11 px-3 text-sm"
          disabled={busy}
          onClick={() => void act(() => snoozeFollowUp(item.linkId, snooze), `The follow-up for ${name} is snoozed; it comes back in ${SNOOZES.find((s) => s.days === snooze)?.label}.`)}
        >
          Snooze
        </button>
        <button
          type="button"
          className="btn btn-secondary min-h-11 px-3 text-sm"
          disabled={busy}
          onClick={() => void act(() => dismissFollowUp(item.linkId), `The follow-up for ${name} is dismissed; it will not come up again.`)}
        >
          Dismiss
        </button>
      </div>
      {writing && (
        <form ref={formRef} id={`${id}-form`} aria-label={`Follow-up for ${name}`} className="mt-4 grid gap-3" onSubmit={onSubmit} noValidate>
          <div className="grid gap-1">
            <label htmlFor={`${id}-subject`} className="text-sm font-medium text-gray-200">
              Subject
            </label>
            <input
              id={`${id}-subject`}
              name="subject"
              defaultValue={item.draft.subject}
              maxLength={200}
              required
              dir="auto"
              lang={item.language}
              className="field-input"
              {...invalid('subject')}
            />
            {problem('subject')}
          </div>
          <div className="grid gap-1">
            <label htmlFor={`${id}-body`} className="text-sm font-medium text-gray-200">
              Message
            </label>
            <textarea
              id={`${id}-body`}
              name="body"
              defaultValue={item.draft.body}
              maxLength={10000}
              required
              rows={10}
              dir="auto"
              lang={item.language}
              className="field-input"
              {...invalid('body')}
            />
            {problem('body')}
          </div>
          <p className="text-sm text-gray-300">
            Sent from the site to <bdi dir="ltr">{item.recipientEmail}</bdi>
            {replyAddress && (
              <>
                ; answers go to <bdi dir="ltr">{replyAddress}</bdi>
              </>
            )}
            .
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn btn-primary min-h-11" disabled={busy || !canSend}>
              {busy ? 'Sending…' : 'Send follow-up'}
            </button>
            <button type="button" className="btn btn-secondary min-h-11" onClick={() => setWriting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
