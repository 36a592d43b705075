import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import type { ContactMessage } from '../api/contact';

type Field = keyof ContactMessage;

const LABELS: Record<Field, string> = { name: 'Name', email: 'Email', subject: 'Subject', message: 'Message' };

const SUCCESS_MESSAGE = 'Your response has securely sent!';

function waitText(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/** A sentence for the alert above the button; field problems are shown by their fields. */
function describe(error: unknown, fieldCount: number): string {
  const kept = 'Your message was not sent, but your text is still here.';
  if (!(error instanceof ApiError)) return `Something went wrong. ${kept}`;
  if (error.status === 422 && fieldCount > 0) return 'Please correct the fields marked below.';
  if (error.status === 429) {
    const wait = error.retryAfter === null ? 'a moment' : waitText(error.retryAfter);
    return `You have sent too many messages. Please wait ${wait} and try again. ${kept}`;
  }
  if (error.status === 0) return `${error.message} ${kept}`;
  if (error.status >= 500) return `Something went wrong on our side. Please try again in a moment. ${kept}`;
  return `${error.message} ${kept}`;
}

/**
 * The contact form: the browser's own validation first, then the server's, whose answers are
 * shown next to each field. Nothing the visitor wrote is lost on failure; the form is cleared
 * only once the server has stored the message.
 */
export function ContactForm() {
  const id = useId();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [alert, setAlert] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  // Solving progress (0 to 1) while Send waits for the spam proofs; null otherwise.
  const [progress, setProgress] = useState<number | null>(null);
  const sendingRef = useRef(false);
  // The sending code with its spam proofs (a signed form token and a proof-of-work challenge),
  // loaded when the form is first used; importing it starts the challenge.
  const guard = useRef<Promise<typeof import('../contact/guard')> | null>(null);
  function load() {
    guard.current ??= import('../contact/guard').catch((error: unknown) => {
      guard.current = null;
      throw error;
    });
    return guard.current;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sendingRef.current) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    };
    sendingRef.current = true;
    setSending(true);
    setSent(false);
    setAlert('');
    setFieldErrors({});
    try {
      await (await load()).send(
        { name: text('name'), email: text('email'), subject: text('subject'), message: text('message') },
        text('website'),
        setProgress,
      );
      form.reset();
      setSent(true);
    } catch (error) {
      const fields: Partial<Record<Field, string>> = {};
      if (error instanceof ApiError && error.status === 422) {
        for (const [name, problem] of Object.entries(error.fields)) {
          if (name in LABELS) fields[name as Field] = `${LABELS[name as Field]} ${problem}.`;
        }
      }
      setFieldErrors(fields);
      setAlert(describe(error, Object.keys(fields).length));
      const first = (Object.keys(LABELS) as Field[]).find((name) => fields[name]);
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    } finally {
      sendingRef.current = false;
      setSending(false);
      setProgress(null);
    }
  }

  function clearError(name: Field) {
    if (fieldErrors[name]) setFieldErrors(({ [name]: _cleared, ...rest }) => rest);
  }

  function field(name: Field, input: (props: Record<string, unknown>) => ReactNode) {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const error = fieldErrors[name];
    return (
      <div className="grid gap-1">
        <label htmlFor={inputId} className="field-label">
          {LABELS[name]}
        </label>
        {input({
          id: inputId,
          name,
          className: 'field-input',
          required: true,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : undefined,
          onInput: () => clearError(name),
        })}
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <form className="relative grid gap-4" aria-label="Contact form" onSubmit={onSubmit} onFocus={() => load().catch(() => {})}>
      {field('name', (props) => <input {...props} type="text" autoComplete="name" maxLength={100} />)}
      {field('email', (props) => <input {...props} type="email" autoComplete="email" maxLength={254} />)}
      {field('subject', (props) => <input {...props} type="text" maxLength={200} />)}
      {field('message', (props) => <textarea {...props} rows={5} maxLength={5000} />)}
      {/* Honeypot: off screen and hidden from assistive technology; only robots fill it in. */}
      <div aria-hidden="true" className="absolute -left-[10000px] top-0 h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>Website</label>
        <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p role="alert" className="field-error">
        {alert}
      </p>
      <p role="status">{sent ? SUCCESS_MESSAGE : ''}</p>
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {progress !== null ? `Preparing… ${Math.floor(progress * 100)}%` : sending ? 'Sending…' : 'Send Message'}
      </button>
    </form>
  );
}
