/**
 * The case studies' calls (the owner's): which projects have one, each one's draft (with its ETag,
 * sent back as `If-Match`, as the page's), publishing, the versions and reverting. Errors are
 * `ApiError`s from the shared client.
 */
import { api, request } from './client';
import type { CaseStudy } from '../content/document';
import type { Answer } from './answer';
import type { components } from './openapi.generated';
import type { Version } from './content';

export type CaseStudyState = Answer<components['schemas']['CaseStudyState']>;

export interface CaseStudyDraft {
  /** 0 while nothing was saved: the document is then the published one, or a new one. */
  revision: number;
  document: CaseStudy;
  /** The draft's ETag: the `If-Match` of the next save. */
  etag: string;
}

const base = (project: string) => `/api/content/case-studies/${encodeURIComponent(project)}`;

async function draftOf(response: Response): Promise<CaseStudyDraft> {
  const body = (await response.json()) as { revision: number; document: CaseStudy };
  return { ...body, etag: response.headers.get('ETag') ?? `"${body.revision}"` };
}

/** Every case study begun: its draft's revision and its newest version, by project. */
export async function listCaseStudies(signal?: AbortSignal): Promise<CaseStudyState[]> {
  return (await api<{ caseStudies: CaseStudyState[] }>('/api/content/case-studies', { signal })).caseStudies;
}

/** The draft, else the published case study, else a new one with its slug made from the project's title (revision 0). */
export async function loadCaseStudyDraft(project: string, signal?: AbortSignal): Promise<CaseStudyDraft> {
  return draftOf(await request(`${base(project)}/draft`, { signal }));
}

/** Saves the draft from the revision `etag`; 409 (`ApiError`) when it was saved elsewhere since. */
export async function saveCaseStudyDraft(document: CaseStudy, etag: string): Promise<CaseStudyDraft> {
  return draftOf(await request(`${base(document.project)}/draft`, { method: 'PUT', body: document, headers: { 'If-Match': etag } }));
}

/** Publishes the draft now, or at `at` (as `publishDraft` reads it). */
export function publishCaseStudy(project: string, at?: string): Promise<Version> {
  return api(`${base(project)}/publish${at ? `?at=${encodeURIComponent(at)}` : ''}`, { method: 'POST' });
}

export async function listCaseStudyVersions(project: string, signal?: AbortSignal): Promise<Version[]> {
  return (await api<{ versions: Version[] }>(`${base(project)}/versions`, { signal })).versions;
}

export function revertCaseStudy(project: string, version: number): Promise<Version> {
  return api(`${base(project)}/versions/${version}/revert`, { method: 'POST' });
}
