import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import type { ContactMessage } from '../api/contact';
import { addEnglish, useTexts, type Translator } from '../i18n/locale';
import englishTexts from '../i18n/en.json?form,wait&part';

addEnglish(englishTexts);

type Field = keyof ContactMessage;

const FIELDS: readonly Field[] = ['name', 'email', 'subject', 'message'];

/** The most characters each field takes, as the server counts them. */
const MAX_LENGTH: Record<Field, number> = { name: 100, email: 254, subject: 200, message: 5000 };

/**
 * What is wrong with a field the server refused, told from the page's string table by the value
 * sent (the server's 422 names the field; its English sentence is never shown).
 */
function problem(texts: Translator, name: Field, value: string): string {
  const label = texts.t(`form.${name}`);
  if (value.trim() === '') return texts.t('form.required', { label });
  if ([...value].length > MAX_LENGTH[name]) return texts.t('form.tooLong', { label, max: MAX_LENGTH[name] });
  return texts.t(name === 'email' ? 'form.invalidEmail' : 'form.invalid', { label });
}

function waitText(texts: Translator, seconds: number): string {
  if (seconds < 90) return texts.plural('wait.seconds', seconds);
  return texts.plural('wait.minutes', Math.ceil(seconds / 60));
}

/**
 * A sentence for the alert above the button, from the page's string table by the error's stable
 * status and code (never the server's English text); field problems are shown by their fields.
 */
function describe(texts: Translator, error: unknown, fieldCount: number): string {
  const kept = texts.t('form.kept');
  if (!(error instanceof ApiError)) return `${texts.t('form.failed')} ${kept}`;
  if (error.status === 422 && fieldCount > 0) return texts.t('form.fixFields');
  if (error.status === 429) {
    const wait = error.retryAfter === null ? texts.t('wait.moment') : waitText(texts, error.retryAfter);
    return `${texts.t('form.tooMany', { wait })} ${kept}`;
  }
  if (error.status === 0) return `${texts.t('form.network')} ${kept}`;
  if (error.code === 'storage_unavailable') return `${texts.t('form.storage')} ${kept}`;
  if (error.status >= 500) return `${texts.t('form.server')} ${kept}`;
  return `${texts.t('form.failed')} ${kept}`;
}

/**
 * The contact form: the browser's own validation first, then the server's, whose answers are
 * shown next to each field. Nothing the visitor wrote is lost on failure; the form is cleared
 * only once the server has stored the message.
 */
export function ContactForm() {
  const id = useId();
  const texts = useTexts();
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
        for (const name of FIELDS) {
          if (name in error.fields) fields[name] = problem(texts, name, text(name));
        }
      }
      setFieldErrors(fields);
      setAlert(describe(texts, error, Object.keys(fields).length));
      const first = FIELDS.find((name) => fields[name]);
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
          {texts.t(`form.${name}`)}
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
    <form className="relative grid gap-4" aria-label={texts.t('form.label')} onSubmit={onSubmit} onFocus={() => load().catch(() => {})}>
      {field('name', (props) => <input {...props} type="text" autoComplete="name" maxLength={MAX_LENGTH.name} />)}
      {/* An address reads left to right on a right-to-left page too. */}
      {field('email', (props) => <input {...props} type="email" dir="ltr" autoComplete="email" maxLength={MAX_LENGTH.email} />)}
      {field('subject', (props) => <input {...props} type="text" maxLength={MAX_LENGTH.subject} />)}
      {field('message', (props) => <textarea {...props} rows={5} maxLength={MAX_LENGTH.message} />)}
      {/* Honeypot: off screen and hidden from assistive technology; only robots fill it in. */}
      <div aria-hidden="true" className="absolute -start-[10000px] top-0 size-px overflow-hidden">
        <label htmlFor={`${id}-website`}>Website</label>
        <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p role="alert" className="field-error">
        {alert}
      </p>
      <p role="status">{sent ? texts.t('form.sent') : ''}</p>
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {progress !== null
          ? texts.t('form.preparing', { percent: Math.floor(progress * 100) })
          : texts.t(sending ? 'form.sending' : 'form.send')}
      </button>
    </form>
  );
}
