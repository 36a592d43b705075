/**
 * The owner's ways in, as the dashboard manages them: signed-in browsers, passkeys, the second
 * factor, and proving it is the owner again before the changes that ask for it.
 */
import { api } from './client';
import type { Ceremony } from './session';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** One signed-in browser (`GET /api/sessions`); times are Unix milliseconds. */
export type SessionInfo = Answer<components['schemas']['SessionView']>;

export type Passkey = Answer<components['schemas']['PasskeyView']>;

export type SecondFactorStatus = Answer<components['schemas']['SecondFactorStatus']>;

export type SecondFactorSetup = Answer<components['schemas']['Setup']>;

export async function listSessions(): Promise<SessionInfo[]> {
  return (await api<{ sessions: SessionInfo[] }>('/api/sessions')).sessions;
}

export function endSession(id: string): Promise<void> {
  return api<void>(`/api/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function listPasskeys(): Promise<Passkey[]> {
  return (await api<{ passkeys: Passkey[] }>('/api/session/passkeys')).passkeys;
}

export function startPasskeyRegistration(name: string): Promise<Ceremony> {
  return api<Ceremony>('/api/session/passkeys/register/start', { method: 'POST', body: { name } });
}

export function finishPasskeyRegistration(challengeId: string, credential: unknown): Promise<Passkey> {
  return api<Passkey>('/api/session/passkeys/register/finish', { method: 'POST', body: { challengeId, credential } });
}

export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return api<Passkey>(`/api/session/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name } });
}

export function removePasskey(id: string): Promise<void> {
  return api<void>(`/api/session/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function secondFactorStatus(): Promise<SecondFactorStatus> {
  return api<SecondFactorStatus>('/api/session/second-factor');
}

export function setUpSecondFactor(): Promise<SecondFactorSetup> {
  return api<SecondFactorSetup>('/api/session/second-factor/setup', { method: 'POST' });
}

/** Turns the second factor on with the app's first code; the answer's recovery codes are shown once. */
export async function confirmSecondFactor(code: string): Promise<string[]> {
  return (await api<{ recoveryCodes: string[] }>('/api/session/second-factor/confirm', { method: 'POST', body: { code } })).recoveryCodes;
}

export function turnOffSecondFactor(): Promise<void> {
  return api<void>('/api/session/second-factor', { method: 'DELETE' });
}

export async function newRecoveryCodes(): Promise<string[]> {
  return (await api<{ recoveryCodes: string[] }>('/api/session/second-factor/recovery-codes', { method: 'POST' })).recoveryCodes;
}

export function reauthenticate(password: string): Promise<void> {
  return api<void>('/api/session/reauth', { method: 'POST', body: { password } });
}

export function startPasskeyReauth(): Promise<Ceremony> {
  return api<Ceremony>('/api/session/reauth/passkey/start', { method: 'POST' });
}

export function finishPasskeyReauth(challengeId: string, credential: unknown): Promise<void> {
  return api<void>('/api/session/reauth/passkey/finish', { method: 'POST', body: { challengeId, credential } });
}

/** Signing out, this browser or every one, and a new password: the dashboard's alone, so not in the login page's JavaScript. */
export function signOut(): Promise<void> {
  return api<void>('/api/session', { method: 'DELETE' });
}

export function signOutEverywhere(): Promise<void> {
  return api<void>('/api/sessions', { method: 'DELETE' });
}

export function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  return api<void>('/api/session/password', { method: 'PUT', body: { currentPassword, newPassword } });
}
