/**
 * One small typed fetch client. Every error the server sends has the shape
 * `{ "error": { "code", "message", "fields"? } }`; this turns it, and network failures,
 * into an `ApiError` whose message is fit to show to a person.
 */

import type { components } from './openapi.generated';

export type ErrorBody = components['schemas']['ErrorBody'];

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** Seconds to wait before trying again, from `Retry-After` (429 answers). */
  readonly retryAfter: number | null;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

/**
 * Called at each answer that finds the session gone (`unauthorized`, a 401; not a refused
 * password, code or passkey, which are 401s of their own). The dashboard's shell listens, through
 * `dashboard/shared/session.ts`, and goes to the login page.
 */
export const sessionListeners = new Set<() => void>();

const NETWORK_MESSAGE = 'We could not reach the server. Check your connection and try again.';

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'message' in error && 'code' in error;
}

function fallbackMessage(status: number): string {
  if (status === 429) return 'Too many attempts. Please wait a moment and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again in a moment.';
  return 'The request could not be completed. Please check it and try again.';
}

export interface ApiRequest {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (an upload's bytes), in place of `body`. */
  raw?: Blob;
  /** Added to the request's headers (`If-Match`, say). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * How far the server's clock is ahead of this device's (behind when negative), as its answers'
 * `Date` headers tell: 0 while they agree within two seconds, which a header of whole seconds
 * cannot tell apart. A device whose clock is off by minutes would otherwise call a version that
 * the server already shows "scheduled", or one still to come "live".
 */
let serverAhead = 0;

function noteServerClock(response: Response): void {
  const date = Date.parse(response.headers.get('Date') ?? '');
  if (Number.isNaN(date)) return;
  // The header's whole second began up to a second before the server answered: its end is the
  // latest the server's clock can have read, so that what the server has just done is never
  // taken for something still to come.
  const ahead = date + 1000 - Date.now();
  serverAhead = Math.abs(ahead) < 2000 ? 0 : ahead;
}

/** The server's time now, as far as this device can tell: what scheduled moments are compared with. */
export function serverNow(): number {
  return Date.now() + serverAhead;
}

/**
 * Sends a request to our own API and returns the successful answer, for callers that need its
 * headers (an ETag, say), or throws an `ApiError`.
 */
export async function request(path: string, init: ApiRequest = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  let body: BodyInit | undefined = init.raw;
  if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.body);
  }

  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
  }

  noteServerClock(response);
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null);
    const header = response.headers.get('Retry-After');
    const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : null;
    if (isErrorBody(payload)) {
      const { code, message, fields } = payload.error;
      if (code === 'unauthorized') sessionListeners.forEach((listener) => listener());
      throw new ApiError(response.status, code, message, fields ?? {}, retryAfter);
    }
    throw new ApiError(response.status, 'http_error', fallbackMessage(response.status), {}, retryAfter);
  }
  return response;
}

/** Sends a request to our own API and parses the JSON answer, or throws an `ApiError`. */
export async function api<T>(path: string, init: ApiRequest = {}): Promise<T> {
  const response = await request(path, init);
  if (response.status === 204) return undefined as T;
  return (await response.json().catch(() => null)) as T;
}
