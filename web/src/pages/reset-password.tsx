import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client';
import { sentence } from '../api/problems';
import { AuthCard, FormAlert } from './auth-card';
import { fragmentToken } from './fragment-token';
import { messageFor } from './login';
import { SignOutEverywherePage } from './sign-out-everywhere';

/** `POST /api/session/reset`: sets the password with the link's token (and a code when the second factor is on). */
function resetPassword(token: string, password: string, code?: string): Promise<void> {
  return api<void>('/api/session/reset', { method: 'POST', body: { token, password, ...(code ? { code } : {}) } });
}

type Errors = Partial<Record<'password' | 'repeat' | 'code' | 'form', string>>;

/** The link's token (see `fragmentToken`). */
const takeToken = fragmentToken();

/**
 * `/login/reset#<token>`: the page a reset link opens. It sets a new password (asking for a code
 * when the second factor is on) and never signs in: the owner logs in with the new password.
 */
export function ResetPasswordPage() {
  const [token] = useState(takeToken);
  const [askCode, setAskCode] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [expired, setExpired] = useState(!token);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password !== form.get('repeat')) {
      setErrors({ repeat: 'The two passwords differ.' });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      await resetPassword(token, password, askCode ? String(form.get('code') ?? '').trim() : undefined);
      setDone(true);
    } catch (cause) {
      const fields = cause instanceof ApiError ? cause.fields : {};
      if (fields.token) setExpired(true);
      if (fields.code) setAskCode(true);
      const said = (name: string) => fields[name] && sentence(name, fields[name]);
      setErrors(fields.password || fields.code ? { password: said('password'), code: said('code') } : { form: messageFor(cause) ?? undefined });
    } finally {
      setPending(false);
    }
  }

  const field = (name: 'password' | 'repeat' | 'code', label: string, hint?: string) => {
    const error = errors[name];
    const described = [hint && `reset-${name}-hint`, error && `reset-${name}-error`].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={`reset-${name}`} className="field-label">
          {label}
        </label>
        <input
          id={`reset-${name}`}
          name={name}
          type={name === 'code' ? 'text' : 'password'}
          required
          minLength={name === 'code' ? undefined : 12}
          maxLength={name === 'code' ? 64 : 128}
          autoComplete={name === 'code' ? 'one-time-code' : 'new-password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className="field-input"
        />
        {hint && (
          <p id={`reset-${name}-hint`} className="mt-1.5 text-sm text-gray-400">
            {hint}
          </p>
        )}
        {error && (
          <p id={`reset-${name}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
    );
  };

  const toLogin = (
    <Link to="/login" className="btn btn-primary mt-6 w-full">
      Go to the login page
    </Link>
  );

  if (done) {
    return (
      <AuthCard title="Your password was changed" lead="Every session was signed out. Log in with the new password.">
        <p role="status" className="sr-only">
          Your password was changed.
        </p>
        {toLogin}
      </AuthCard>
    );
  }
  if (expired) {
    return (
      <AuthCard title="This link no longer works" lead="Reset links work once, for 30 minutes. Ask for a new one from the login page.">
        {toLogin}
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Set a new password" lead="Choose the password you will log in with from now on.">
      <form className="mt-8 space-y-5" onSubmit={onSubmit} aria-busy={pending}>
        {field('password', 'New password', '12 to 128 characters; a few unrelated words make a good one.')}
        {field('repeat', 'Repeat the new password')}
        {askCode && field('code', 'Authentication code', 'The second factor is on: enter the code from your authenticator app, or a recovery code.')}
        {errors.form && <FormAlert>{errors.form}</FormAlert>}
        <button type="submit" className="btn btn-primary w-full" disabled={pending}>
          {pending ? 'Saving…' : 'Set the new password'}
        </button>
      </form>
    </AuthCard>
  );
}

/** The pages the owner's e-mails link to, by their address under `/login/`: this chunk holds both (see routes.tsx). */
export const pages = { reset: ResetPasswordPage, 'sign-out': SignOutEverywherePage };
