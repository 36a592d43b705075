/**
 * Passkeys in the browser, through WebAuthn's JSON forms: the server sends options as JSON
 * (binary fields in base64url) and takes the credential's `toJSON()`. Browsers without those
 * (before Chrome 129, Firefox 119, Safari 18.4) are not offered passkeys.
 */
import { ApiError } from '../api/client';
import type { Ceremony } from '../api/session';

export function passkeysSupported(): boolean {
  return typeof PublicKeyCredential !== 'undefined' && 'parseRequestOptionsFromJSON' in PublicKeyCredential;
}

/** Asks the browser for one of this site's passkeys; its answer, as JSON for the server. */
export async function getPasskey(
  options: Ceremony['options'],
  mediation?: CredentialMediationRequirement,
  signal?: AbortSignal,
): Promise<PublicKeyCredentialJSON> {
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey as PublicKeyCredentialRequestOptionsJSON);
  const credential = (await navigator.credentials.get({ publicKey, mediation, signal })) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('', 'NotAllowedError');
  return credential.toJSON();
}

/**
 * What to tell the person when a passkey step failed: `null` when they cancelled the browser's
 * prompt (or it timed out), else a sentence.
 */
export function passkeyProblem(cause: unknown): string | null {
  if (cause instanceof ApiError) return cause.message;
  if (!(cause instanceof DOMException)) return 'Something went wrong. Please try again.';
  return cause.name === 'AbortError' || cause.name === 'NotAllowedError' ? null : `The browser could not use a passkey: ${cause.message}`;
}
