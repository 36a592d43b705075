import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { changePassword } from '../../api/account';
import { problemText, sentence } from '../../api/problems';

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'repeat' | 'form', string>>;

/** Changes the owner's password in a native dialog; the other sessions end. */
export function ChangePasswordDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement | null> }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);

  function reset() {
    formRef.current?.reset();
    setErrors({});
    setDone(false);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const current = String(form.get('currentPassword') ?? '');
    const next = String(form.get('newPassword') ?? '');
    if (next !== String(form.get('repeat') ?? '')) {
      setErrors({ repeat: 'The two new passwords differ.' });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      await changePassword(current, next);
      formRef.current?.reset();
      setDone(true);
    } catch (cause) {
      if (cause instanceof ApiError && Object.keys(cause.fields).length > 0) {
        const said = (name: string) => cause.fields[name] && sentence(name, cause.fields[name]);
        setErrors({ currentPassword: said('currentPassword'), newPassword: said('newPassword') });
      } else {
        setErrors({ form: problemText(cause) });
      }
    } finally {
      setPending(false);
    }
  }

  const field = (name: 'currentPassword' | 'newPassword' | 'repeat', label: string, autoComplete: string, hint?: string) => {
    const error = errors[name];
    const described = [hint && `${name}-hint`, error && `${name}-error`].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={`cp-${name}`} className="field-label">
          {label}
        </label>
        <input
          id={`cp-${name}`}
          name={name}
          type="password"
          required
          minLength={name === 'currentPassword' ? undefined : 12}
          maxLength={name === 'currentPassword' ? 512 : 128}
          autoComplete={autoComplete}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className="field-input"
        />
        {hint && (
          <p id={`${name}-hint`} className="mt-1.5 text-sm text-gray-400">
            {hint}
          </p>
        )}
        {error && (
          <p id={`${name}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="change-password-title"
      onClose={reset}
      className="m-auto w-[calc(100%-2.5rem)] max-w-md rounded-xl border border-gray-800 bg-gray-900 p-6 text-gray-300 shadow-2xl shadow-black/50 backdrop:bg-black/70"
    >
      <h2 id="change-password-title" className="text-xl font-bold text-white">
        Change password
      </h2>
      {done ? (
        <div className="mt-4 space-y-4">
          <p role="status" className="text-gray-200">
            Your password was changed. Every other session was signed out.
          </p>
          <button type="button" className="btn btn-primary" onClick={() => dialogRef.current?.close()}>
            Close
          </button>
        </div>
      ) : (
        <form ref={formRef} onSubmit={onSubmit} className="mt-4 space-y-4" noValidate={false}>
          {field('currentPassword', 'Current password', 'current-password')}
          {field('newPassword', 'New password', 'new-password', '12 to 128 characters; a few unrelated words make a good one.')}
          {field('repeat', 'Repeat the new password', 'new-password')}
          {errors.form && (
            <p role="alert" className="field-error">
              {errors.form}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <button type="button" className="btn btn-ghost" onClick={() => dialogRef.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? 'Changing…' : 'Change password'}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
