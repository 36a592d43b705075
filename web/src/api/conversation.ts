/**
 * A message's conversation (`/api/messages/{id}/conversation`): the owner's replies, sent by
 * e-mail through the outbox, and the visitor's answers, read from the site's mailbox; and how
 * reading that mailbox goes (`/api/mailbox`). Types mirror the server's JSON.
 */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

export type Conversation = Answer<components['schemas']['Conversation']>;

/** A reply of the owner's (`kind: 'reply'`) or an answer of the visitor's (`'answer'`). */
export type ConversationItem = Answer<components['schemas']['Item']>;

/** A part of an answer: `text`, or `quote` and `signature`, which the inbox folds away. */
export type ItemPart = Answer<components['schemas']['Part']>;

export type Attachment = Answer<components['schemas']['Attachment']>;

export type MailboxStatus = Answer<components['schemas']['MailboxStatus']>;

export type UnmatchedMail = Answer<components['schemas']['Unmatched']>;

/** The message with its replies and answers, oldest first; reading it marks it read. */
export function readConversation(id: number, signal?: AbortSignal): Promise<Conversation> {
  return api<Conversation>(`/api/messages/${id}/conversation`, { signal });
}

/** Queues a reply to the visitor in the outbox; answers with it as the conversation shows it. */
export function sendReply(id: number, body: string): Promise<ConversationItem> {
  return api<ConversationItem>(`/api/messages/${id}/replies`, { method: 'POST', body: { body } });
}

/** An answer's attachment, served only as a download (and only when its bytes were kept). */
export function attachmentUrl(messageId: number, attachmentId: number): string {
  return `/api/messages/${messageId}/attachments/${attachmentId}`;
}

export function readMailbox(signal?: AbortSignal): Promise<MailboxStatus> {
  return api<MailboxStatus>('/api/mailbox', { signal });
}
