import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client';
import { AuthCard, FormAlert } from './auth-card';
import { fragmentToken } from './fragment-token';
import { messageFor } from './login';

/** `POST /api/session/sign-out-link`: signs every session out with a security notice's link. */
function signOutWithLink(token: string): Promise<void> {
  return api<void>('/api/session/sign-out-link', { method: 'POST', body: { token } });
}

/** The link's token (see `fragmentToken`). */
const takeToken = fragmentToken();

/**
 * `/login/sign-out#<token>`: the page a security notice's link opens. It asks before it acts (a
 * mail scanner that follows the link signs no one out), then signs every session out and changes
 * nothing else: the way out for an owner whose session was taken, even when locked out.
 */
export function SignOutEverywherePage() {
  const [token] = useState(takeToken);
  const [state, setState] = useState<'ask' | 'pending' | 'done' | 'expired'>(token ? 'ask' : 'expired');
  const [error, setError] = useState<string | null>(null);

  async function signOut() {
    setState('pending');
    setError(null);
    try {
      await signOutWithLink(token);
      setState('done');
    } catch (cause) {
      if (cause instanceof ApiError && cause.fields.token) {
        setState('expired');
        return;
      }
      setError(messageFor(cause) ?? 'Something went wrong. Try again.');
      setState('ask');
    }
  }

  const toLogin = (
    <Link to="/login" className="btn btn-primary mt-6 w-full">
      Go to the login page
    </Link>
  );

  if (state === 'done') {
    return (
      <AuthCard
        title="Every session was signed out"
        lead="Nothing else changed. If someone else made the change the e-mail told you of, change your password now: use “Forgot password?” on the login page, or `portfolio owner set` on the server."
      >
        <p role="status" className="sr-only">
          Every session was signed out.
        </p>
        {toLogin}
      </AuthCard>
    );
  }
  if (state === 'expired') {
    return (
      <AuthCard
        title="This link no longer works"
        lead="A notice's sign-out link works once, for 24 hours. To end every session now, sign in and choose “Sign out everywhere”, or set a new password with `portfolio owner set` on the server."
      >
        {toLogin}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Sign out every session?"
      lead="This ends every signed-in session of your dashboard, in every browser, and changes nothing else: your password, passkeys and second factor stay as they are."
    >
      <div className="mt-8 space-y-5" aria-busy={state === 'pending'}>
        {error && <FormAlert>{error}</FormAlert>}
        <button type="button" className="btn btn-primary w-full" disabled={state === 'pending'} onClick={() => void signOut()}>
          {state === 'pending' ? 'Signing out…' : 'Sign out every session'}
        </button>
      </div>
    </AuthCard>
  );
}
