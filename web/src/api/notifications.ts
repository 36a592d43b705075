/** What became of the owner's notifications: `/api/notifications`. Types mirror the server's JSON. */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

export type DeliveryStatus = Delivery['status'];

export type Delivery = Answer<components['schemas']['Delivery']>;

export type MessageDelivery = Answer<components['schemas']['MessageDelivery']>;

export type DeliveryHealth = Answer<components['schemas']['DeliveryHealth']>;

export function deliveryStatuses(messageIds: number[], signal?: AbortSignal): Promise<{ messages: MessageDelivery[] }> {
  return api(`/api/notifications/status?messageIds=${messageIds.join(',')}`, { signal });
}

export function deliveryHealth(signal?: AbortSignal): Promise<DeliveryHealth> {
  return api<DeliveryHealth>('/api/notifications/health', { signal });
}

export function notification(id: number, signal?: AbortSignal): Promise<Delivery> {
  return api<Delivery>(`/api/notifications/${id}`, { signal });
}

/** Queues a test e-mail through the outbox. */
export function sendTestEmail(): Promise<Delivery> {
  return api<Delivery>('/api/notifications/test', { method: 'POST' });
}

/** Makes a waiting notification due at once. */
export function retryNotification(id: number): Promise<Delivery> {
  return api<Delivery>(`/api/notifications/${id}/retry`, { method: 'POST' });
}

/** The server's error text as a sentence: "The mail server could not be reached: …". */
export function plainError(error: string | null): string {
  if (!error) return 'The reason was not recorded.';
  return error.charAt(0).toUpperCase() + error.slice(1);
}
