import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import type { ContactMessage } from '../api/contact';
import { Icon } from './icon';
import { addEnglish, useTexts, type Translator } from '../i18n/locale';
import englishTexts from '../i18n/en.json?form,wait&part';

addEnglish(englishTexts);

type Field = keyof ContactMessage;

const FIELDS: readonly Field[] = ['name', 'email', 'subject', 'message'];

/** The most characters each field takes, as the server counts them. */
const MAX_LENGTH: Record<Field, number> = { name: 100, email: 254, subject: 200, message: 5000 };

/**
 * What is wrong with a field, told from the page's string table by its value: the form's own
 * check before sending (the browser's, with its bubble in the browser's language, is off), and a
 * field the server's 422 names (its English sentence is never shown).
 */
function problem(texts: Translator, name: Field, value: string): string {
  const label = texts.t(`form.${name}`);
  if (value.trim() === '') return texts.t('form.required', { label });
  if (tooLong(name, value)) return texts.t('form.tooLong', { label, max: MAX_LENGTH[name] });
  return texts.t(name === 'email' ? 'form.invalidEmail' : 'form.invalid', { label });
}

/** Longer than the server takes: characters (code points) counted, the name's once trimmed. */
const tooLong = (name: Field, value: string) => [...(name === 'name' ? value.trim() : value)].length > MAX_LENGTH[name];

function waitText(texts: Translator, seconds: number): string {
  if (seconds < 90) return texts.plural('wait.seconds', seconds);
  return texts.plural('wait.minutes', Math.ceil(seconds / 60));
}

/**
 * What the summary above the fields says of a failure that is no field's, from the page's string
 * table by the error's stable status and code (never the server's English text).
 */
function describe(texts: Translator, error: unknown): string {
  const kept = texts.t('form.kept');
  if (!(error instanceof ApiError)) return `${texts.t('form.failed')} ${kept}`;
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
 * The contact form, checked in the page's language (the browser's own validation is off:
 * `noValidate`), then by the server. The outcome of the last attempt shows above the fields and
 * takes the focus, so it is seen and read out: a success panel naming the sender and saying when
 * to expect an answer (`responseTime`, the document's), or a summary of what went wrong, each
 * field's problem a link to the field, beside which it is shown too. Nothing the visitor wrote is
 * lost on failure; the form is cleared only once the server has stored the message. Typing again
 * or sending again clears the last outcome.
 */
export function ContactForm({ responseTime }: { responseTime: string }) {
  const id = useId();
  const texts = useTexts();
  const [sending, setSending] = useState(false);
  // The sender's name once the message is stored, for the success panel; null otherwise.
  const [sentBy, setSentBy] = useState<string | null>(null);
  const [alert, setAlert] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  // Solving progress (0 to 1) while Send waits for the spam proofs; null otherwise.
  const [progress, setProgress] = useState<number | null>(null);
  const sendingRef = useRef(false);
  // The outcome's panel, focused once an attempt ends (not as its list shrinks while fixing).
  const outcome = useRef<HTMLDivElement>(null);
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    if (attempts > 0) outcome.current?.focus();
  }, [attempts]);
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
    setSentBy(null);
    setAlert('');
    const fields: Partial<Record<Field, string>> = {};
    for (const name of FIELDS) {
      const value = text(name);
      const email = name === 'email' && form.querySelector<HTMLInputElement>('[name="email"]')?.validity.typeMismatch;
      if (value.trim() === '' || tooLong(name, value) || email) fields[name] = problem(texts, name, value);
    }
    setFieldErrors(fields);
    if (Object.keys(fields).length > 0) {
      setAttempts((n) => n + 1);
      return;
    }
    sendingRef.current = true;
    setSending(true);
    try {
      await (await load()).send(
        { name: text('name'), email: text('email'), subject: text('subject'), message: text('message') },
        text('website'),
        setProgress,
      );
      form.reset();
      setSentBy(text('name').trim());
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        for (const name of FIELDS) {
          if (name in error.fields) fields[name] = problem(texts, name, text(name));
        }
      }
      setFieldErrors(fields);
      // With fields to fix, the summary's first line says so (form.fixFields).
      if (Object.keys(fields).length === 0) setAlert(describe(texts, error));
    } finally {
      sendingRef.current = false;
      setSending(false);
      setProgress(null);
      setAttempts((n) => n + 1);
    }
  }

  /** Typing again clears the last outcome, but for the other fields' problems, still listed. */
  function edited(name: Field) {
    if (fieldErrors[name]) setFieldErrors(({ [name]: _cleared, ...rest }) => rest);
    setSentBy(null);
    setAlert('');
  }

  const inputId = (name: Field) => `${id}-${name}`;
  const invalid = FIELDS.filter((name) => fieldErrors[name]);

  function field(name: Field, input: (props: Record<string, unknown>) => ReactNode) {
    const errorId = `${inputId(name)}-error`;
    const error = fieldErrors[name];
    return (
      <div className="grid gap-1">
        <label htmlFor={inputId(name)} className="field-label">
          {texts.t(`form.${name}`)}
        </label>
        {input({
          id: inputId(name),
          name,
          className: 'field-input',
          required: true,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : undefined,
          onInput: () => edited(name),
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
    <form
      className="relative grid gap-4"
      aria-label={texts.t('form.label')}
      noValidate
      onSubmit={onSubmit}
      onFocus={() => load().catch(() => {})}
    >
      {sentBy !== null && (
        <div ref={outcome} role="status" tabIndex={-1} className="flex gap-3 rounded-xl border border-emerald-400/40 bg-gray-900 p-4">
          <Icon name="check" className="size-5 text-emerald-300" />
          <div>
            <p className="font-semibold text-white">{texts.t('form.sent')}</p>
            <p className="mt-1 text-gray-300">
              {/* The name reads in its own direction inside a sentence of another. */}
              {texts.rich('form.thanks', { name: <bdi>{sentBy}</bdi> })} {responseTime}
            </p>
          </div>
        </div>
      )}
      {(alert || invalid.length > 0) && (
        <div ref={outcome} role="alert" tabIndex={-1} className="rounded-xl border border-red-400/40 bg-gray-900 p-4">
          <p className="font-semibold text-red-300">{alert || texts.t('form.fixFields')}</p>
          {invalid.length > 0 && (
            <ul className="mt-2 grid gap-1">
              {invalid.map((name) => (
                <li key={name}>
                  <a
                    href={`#${inputId(name)}`}
                    className="text-red-300 underline"
                    onClick={(event) => {
                      event.preventDefault();
                      document.getElementById(inputId(name))?.focus();
                    }}
                  >
                    {fieldErrors[name]}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
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
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {progress !== null
          ? texts.t('form.preparing', { percent: Math.floor(progress * 100) })
          : texts.t(sending ? 'form.sending' : 'form.send')}
      </button>
    </form>
  );
}
