/** `POST /api/contact`: the contact form's one call. Types mirror the server's JSON. */
import { api } from './client';
import { currentLink } from '../links/current';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** What the visitor wrote. */
export type ContactMessage = Pick<components['schemas']['ContactRequest'], 'name' | 'email' | 'subject' | 'message'>;

/**
 * What the page adds for the server's spam checks: the hidden honeypot field (`website`, left
 * empty by people), the form token the server signed when the form was first used, and the solved
 * proof-of-work challenge (`altcha`).
 */
export type SpamSignals = Pick<components['schemas']['ContactRequest'], 'website' | 'token' | 'altcha'>;

/** The stored message: the server's id and time of receipt (RFC 3339, UTC). */
export type ContactCreated = Answer<components['schemas']['ContactCreated']>;

/**
 * Sends a message; resolves once the server has stored it, or throws an `ApiError`. A message sent
 * during a visit through an application link names the link (`link`, its slug).
 */
export function sendContactMessage(message: ContactMessage, signals: SpamSignals): Promise<ContactCreated> {
  return api<ContactCreated>('/api/contact', {
    method: 'POST',
    body: { ...message, 'form-name': 'contact', ...signals, link: currentLink() },
  });
}
