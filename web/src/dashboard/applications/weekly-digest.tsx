/**
 * The weekly digest's settings: on or off, the weekday and the hour (in the owner's time zone, the
 * insights' own), and when the next one is due. A chunk of its own, fetched with the Applications tab.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { changeDigest, readDigest, type DigestSettings } from '../../api/follow-ups';
import { problemText } from '../../api/problems';
import { sessionEnded } from '../shared/session';
import { fullDate } from '../shared/format';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export default function WeeklyDigest() {
  const id = useId();
  const [settings, setSettings] = useState<DigestSettings | null>(null);
  const [status, setStatus] = useState('');
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    readDigest(controller.signal).then(setSettings, (cause: unknown) => {
      if (cause instanceof DOMException && cause.name === 'AbortError') return;
      if (!sessionEnded(cause)) setAlert(problemText(cause));
    });
    return () => controller.abort();
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setStatus('');
    setAlert('');
    try {
      const saved = await changeDigest({
        enabled: data.get('enabled') === 'on',
        weekday: Number(data.get('weekday')),
        hour: Number(data.get('hour')),
      });
      setSettings(saved);
      setStatus(saved.nextAt === null ? 'Saved: the weekly digest is off.' : `Saved: the next digest is due ${fullDate(saved.nextAt)}.`);
    } catch (cause) {
      if (!sessionEnded(cause)) setAlert(problemText(cause, { weekday: 'the day', hour: 'the hour' }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="mt-8">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Weekly digest
      </h2>
      <p className="mt-1 max-w-2xl text-sm text-gray-300">
        Once a week, the week's visitors and top referrers, messages, links opened and engaged, and follow-ups due, beside the week
        before, by e-mail and to each webhook. A week with nothing in it is skipped.
      </p>
      {alert && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {alert}
        </p>
      )}
      {settings && (
        <form aria-label="Weekly digest" className="mt-3 grid gap-3 rounded-xl border border-gray-800 bg-gray-900 p-4" onSubmit={(e) => void onSubmit(e)}>
          {!settings.canSend && (
            <p className="text-sm text-amber-200">
              The server has nowhere to send it: start it with --smtp-url and --notify-email, or --webhook-url.
            </p>
          )}
          <label className="flex min-h-11 items-center gap-2 text-sm text-gray-200">
            <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="size-4" />
            Send me a weekly digest
          </label>
          <div className="flex flex-wrap gap-4">
            <label className="grid gap-1 text-sm text-gray-200">
              Day
              <select name="weekday" defaultValue={settings.weekday} className="field-input min-h-11">
                {WEEKDAYS.map((name, index) => (
                  <option key={name} value={index + 1}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="grid gap-1 text-sm text-gray-200">
              Hour ({settings.timeZone})
              <select name="hour" defaultValue={settings.hour} className="field-input min-h-11">
                {HOURS.map((hour) => (
                  <option key={hour} value={hour}>
                    {String(hour).padStart(2, '0')}:00
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p className="text-sm text-gray-300">
            {settings.nextAt === null ? 'The weekly digest is off.' : `Next digest: ${fullDate(settings.nextAt)}.`}
            {settings.lastSentAt !== null && ` Last sent ${fullDate(settings.lastSentAt)}.`}
          </p>
          <div>
            <button type="submit" className="btn btn-primary min-h-11" disabled={busy}>
              {busy ? 'Saving…' : 'Save digest settings'}
            </button>
          </div>
          <p role="status" className="text-sm text-emerald-200">
            {status}
          </p>
        </form>
      )}
    </section>
  );
}
