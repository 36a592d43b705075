/** The owner's session as the login page and the guards use it: `/api/session` and the ways in. */
import { api, ApiError } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** The signed-in owner, as `GET /api/session` returns it. */
export type Owner = Answer<components['schemas']['OwnerView']>;

/** A password sign-in that waits for the second factor's code (`202`). */
export type PendingSignIn = Answer<components['schemas']['PendingView']>;

/** What the login page may offer besides the password. */
export type SignInMethods = Answer<components['schemas']['Methods']>;

/** A WebAuthn ceremony begun by the server: its id and the options for the browser. */
export type Ceremony = Answer<components['schemas']['Ceremony']>;

/** The current owner, or `null` when no one is signed in. */
export async function getSession(signal?: AbortSignal): Promise<Owner | null> {
  try {
    return await api<Owner>('/api/session', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function signIn(email: string, password: string): Promise<Owner | PendingSignIn> {
  return api<Owner | PendingSignIn>('/api/session', { method: 'POST', body: { email, password } });
}

/** The second step of a password sign-in: a one-time or a recovery code. */
export function submitCode(code: string): Promise<Owner> {
  return api<Owner>('/api/session/code', { method: 'POST', body: { code } });
}

export function signInMethods(): Promise<SignInMethods> {
  return api<SignInMethods>('/api/session/methods');
}

export function startPasskeySignIn(): Promise<Ceremony> {
  return api<Ceremony>('/api/session/passkey/start', { method: 'POST' });
}

export function finishPasskeySignIn(challengeId: string, credential: unknown): Promise<Owner> {
  return api<Owner>('/api/session/passkey/finish', { method: 'POST', body: { challengeId, credential } });
}

/** Asks for a reset link; the answer is the same whether or not the address is the owner's. */
export function forgotPassword(email: string): Promise<void> {
  return api<void>('/api/session/forgot', { method: 'POST', body: { email } });
}
