/** Application links for the owner: `/api/links`. Types mirror the server's JSON. */
import { api } from './client';

/** Where an application stands: sent (never opened), opened, engaged (looked further), wrote. */
export type LinkState = 'sent' | 'opened' | 'engaged' | 'wrote';

export interface LinkAlerts {
  /** The first open. */
  open: boolean;
  /** A resume download. */
  resume: boolean;
  /** A message sent through the contact form. */
  message: boolean;
}

export interface LinkTotals {
  opens: number;
  visitors: number;
  resumeDownloads: number;
  projectClicks: number;
  messages: number;
  /** Visitors who saw each section, by its id (`projects`). */
  sections: Record<string, number>;
}

export interface ApplicationLink {
  id: number;
  slug: string;
  /** The address to send: `/a/<slug>`. */
  path: string;
  company: string;
  role: string;
  note: string;
  /** The language of the page it serves. */
  language: string;
  /** Unix milliseconds, UTC. */
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  firstOpenedAt: number | null;
  lastActivityAt: number | null;
  state: LinkState;
  alerts: LinkAlerts;
  totals: LinkTotals;
}

export interface LinkDay {
  /** `YYYY-MM-DD` in the owner's time zone. */
  day: string;
  opens: number;
  visitors: number;
  resumeDownloads: number;
  projectClicks: number;
  messages: number;
  sections: Record<string, number>;
  clicks: Record<string, number>;
}

export interface LinkDetail {
  link: ApplicationLink;
  days: LinkDay[];
}

export interface NewLink {
  company: string;
  role: string;
  note?: string;
  language?: string;
  expiresAt?: number | null;
  alerts?: Partial<LinkAlerts>;
}

export interface LinkChange {
  note?: string;
  expiresAt?: number | null;
  revoked?: boolean;
  alerts?: Partial<LinkAlerts>;
}

export async function listLinks(signal?: AbortSignal): Promise<ApplicationLink[]> {
  return (await api<{ links: ApplicationLink[] }>('/api/links', { signal })).links;
}

export function linkDetail(id: number, signal?: AbortSignal): Promise<LinkDetail> {
  return api<LinkDetail>(`/api/links/${id}`, { signal });
}

export function createLink(link: NewLink): Promise<ApplicationLink> {
  return api<ApplicationLink>('/api/links', { method: 'POST', body: link });
}

export function changeLink(id: number, change: LinkChange): Promise<ApplicationLink> {
  return api<ApplicationLink>(`/api/links/${id}`, { method: 'PATCH', body: change });
}

export function deleteLink(id: number): Promise<void> {
  return api<void>(`/api/links/${id}`, { method: 'DELETE' });
}

/** The CSV download of every link with its state and totals. */
export const LINKS_EXPORT_URL = '/api/links.csv';
