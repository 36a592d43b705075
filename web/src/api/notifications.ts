/** What became of the owner's notifications: `/api/notifications`. Types mirror the server's JSON. */
import { api } from './client';

export type DeliveryStatus = 'sent' | 'pending' | 'sending' | 'retrying' | 'failed';

export interface Delivery {
  id: number;
  messageId: number | null;
  channel: 'email' | 'webhook';
  kind: 'message' | 'test' | 'ceiling';
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  /** Unix milliseconds, while it waits. */
  nextAttemptAt: number | null;
  sentAt: number | null;
  createdAt: number;
}

export interface MessageDelivery {
  messageId: number;
  status: 'not_requested' | 'sent' | 'retrying' | 'pending';
  deliveries: Delivery[];
}

export interface DeliveryHealth {
  notificationsOn: boolean;
  emailOn: boolean;
  pending: number;
  failing: number;
  oldestPendingAt: number | null;
  maxAttempts: number;
  lastError: string | null;
  /** Notifications keep failing. */
  alert: boolean;
}

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
