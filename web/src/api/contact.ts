/** `POST /api/contact`: the contact form's one call. Types mirror the server's JSON. */
import { api } from './client';
import { currentLink } from '../links/current';

/** What the visitor wrote. */
export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** What the page adds for the server's spam checks. */
export interface SpamSignals {
  /** The hidden honeypot field: people leave it empty. */
  website: string;
  /** The form token the server signed when the form was first used. */
  token: string;
  /** The solved proof-of-work challenge (ALTCHA payload). */
  altcha: string;
}

/** The stored message: the server's id and time of receipt (RFC 3339, UTC). */
export interface ContactCreated {
  id: number;
  createdAt: string;
}

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
