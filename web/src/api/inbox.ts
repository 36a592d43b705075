/** The owner's inbox: `/api/messages`. Types mirror the server's JSON. */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** "via Acme, Frontend Developer": the application link a message came through. */
export function viaText(via: MessageSummary['via']): string | null {
  return via ? `via ${via.company}, ${via.role}` : null;
}

export type Folder = 'inbox' | 'spam' | 'trash';

export type MessageSummary = Answer<components['schemas']['MessageSummary']>;

export type Message = Answer<components['schemas']['Message']>;

export type MessagePage = Answer<components['schemas']['MessagePage']>;

export type MessageChange = components['schemas']['MessageUpdate'];

export function listMessages(
  options: { folder: Folder; q?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<MessagePage> {
  const params = new URLSearchParams({ folder: options.folder });
  if (options.q) params.set('q', options.q);
  if (options.cursor) params.set('cursor', options.cursor);
  if (options.limit) params.set('limit', String(options.limit));
  return api<MessagePage>(`/api/messages?${params}`, { signal });
}

export function updateMessage(id: number, change: MessageChange): Promise<Message> {
  return api<Message>(`/api/messages/${id}`, { method: 'PATCH', body: change });
}

/** Deletes for good (from the trash). */
export function deleteMessage(id: number): Promise<void> {
  return api<void>(`/api/messages/${id}`, { method: 'DELETE' });
}

export function exportUrl(format: 'csv' | 'json'): string {
  return `/api/messages/export?format=${format}`;
}
