/** Application links for the owner: `/api/links`. Types mirror the server's JSON. */
import { api } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** Where an application stands: sent (never opened), opened, engaged (looked further), wrote. */
export type LinkState = components['schemas']['LinkState'];

export type LinkAlerts = Answer<components['schemas']['LinkAlerts']>;

export type LinkTotals = Answer<components['schemas']['LinkTotals']>;

export type ApplicationLink = Answer<components['schemas']['Link']>;

export type LinkDay = Answer<components['schemas']['LinkDay']>;

export type LinkDetail = Answer<components['schemas']['LinkDetail']>;

export type NewLink = components['schemas']['NewLinkRequest'];

export type LinkChange = components['schemas']['LinkUpdate'];

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
