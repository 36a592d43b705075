/** The owner's session: `/api/session`, `/api/sessions` and `/api/session/password`. */
import { api, ApiError } from './client';

/** The signed-in owner, as `GET /api/session` returns it. */
export interface Owner {
  email: string;
}

/** The current owner, or `null` when no one is signed in. */
export async function getSession(signal?: AbortSignal): Promise<Owner | null> {
  try {
    return await api<Owner>('/api/session', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function signIn(email: string, password: string): Promise<Owner> {
  return api<Owner>('/api/session', { method: 'POST', body: { email, password } });
}

export function signOut(): Promise<void> {
  return api<void>('/api/session', { method: 'DELETE' });
}

export function signOutEverywhere(): Promise<void> {
  return api<void>('/api/sessions', { method: 'DELETE' });
}

export function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  return api<void>('/api/session/password', { method: 'PUT', body: { currentPassword, newPassword } });
}
