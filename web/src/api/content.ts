/**
 * The page editor's calls: the draft (with its ETag, sent back as `If-Match`), publishing, the
 * versions, and uploads (`/api/media`, see the media contract). Errors are `ApiError`s from the
 * shared client, so the editor shows the server's own words.
 */
import { ApiError, api, request } from './client';
import type { ContentDocument } from '../content/document';
import type { Answer } from './answer';
import type { components } from './openapi.generated';

/** The draft's revision and document (the content module's own type, generated from the same Rust types). */
export type DraftAnswer = Omit<Answer<components['schemas']['Draft']>, 'document'> & {
  document: ContentDocument;
  /** The draft's ETag: the `If-Match` of the next save. */
  etag: string;
};

export type Version = Answer<components['schemas']['Version']>;

/** What `POST /api/media` answers for an image. */
export type UploadedImage = Answer<components['schemas']['MediaView']>;

async function draftOf(response: Response): Promise<DraftAnswer> {
  const body = (await response.json()) as { revision: number; document: ContentDocument };
  return { ...body, etag: response.headers.get('ETag') ?? `"${body.revision}"` };
}

export async function loadDraft(signal?: AbortSignal): Promise<DraftAnswer> {
  return draftOf(await request('/api/content/draft', { signal }));
}

/** Saves the draft from the revision `etag`; 409 (`ApiError`) when it was saved elsewhere since. */
export async function saveDraft(document: ContentDocument, etag: string): Promise<DraftAnswer> {
  return draftOf(await request('/api/content/draft', { method: 'PUT', body: document, headers: { 'If-Match': etag } }));
}

/** The published document, as visitors' pages get it (version 0: the default one, nothing published yet). */
export type PublishedContent = Omit<Answer<components['schemas']['PublishedContent']>, 'document'> & { document: ContentDocument };

/** The published document (revalidated by its ETag, so an unchanged one is not sent again). */
export function loadPublished(signal?: AbortSignal): Promise<PublishedContent> {
  return api('/api/content', { signal });
}

/**
 * Publishes the draft now, or at `at`, a date and time as a `datetime-local` field gives it
 * (`2026-12-24T09:00`), which the server reads in the owner's time zone: the answer's
 * `publishedAt` is then that moment, still to come, and until then visitors see the page as it is.
 */
export function publishDraft(at?: string): Promise<Version> {
  return api(`/api/content/publish${at ? `?at=${encodeURIComponent(at)}` : ''}`, { method: 'POST' });
}

export async function listVersions(signal?: AbortSignal): Promise<Version[]> {
  return (await api<{ versions: Version[] }>('/api/content/versions', { signal })).versions;
}

export function revertTo(version: number): Promise<Version> {
  return api(`/api/content/versions/${version}/revert`, { method: 'POST' });
}

/** Sends an image's raw bytes; the server reads its type from them and answers its WebP widths. */
export function uploadImage(file: File): Promise<UploadedImage> {
  return api(`/api/media?filename=${encodeURIComponent(file.name)}`, { method: 'POST', raw: file });
}

/** What the saved draft's resume says in `language`, how many pages it takes and what does not fit. */
export type ResumePreview = Answer<components['schemas']['ResumePreview']>;
export function draftResume(language: string): Promise<ResumePreview> {
  return api(`/api/content/draft/resume?language=${encodeURIComponent(language)}`);
}

/** The saved draft's resume as a PDF, in `language`. */
export function draftResumePdfUrl(language: string): string {
  return `/api/content/draft/resume.pdf?language=${encodeURIComponent(language)}`;
}

/** What an import filled the draft with, and what it could not place. */
export interface ImportedDraft {
  revision: number;
  unplaced: string[];
}

/** Fills the draft (at `etag`) from a JSON Resume or a LinkedIn export's ZIP; never publishes. */
export async function importResume(file: File, etag: string): Promise<ImportedDraft> {
  const zip = /\.zip$/i.test(file.name) || /zip/.test(file.type);
  const answer = await api<ImportedDraft>('/api/content/draft/import', {
    method: 'POST',
    raw: file,
    headers: { 'If-Match': etag, 'Content-Type': zip ? 'application/zip' : 'application/json' },
  });
  return { revision: answer.revision, unplaced: answer.unplaced };
}

/** Sends the resume PDF, served from then on at `/resume.pdf`. */
export function uploadResume(file: File): Promise<{ path: string; bytes: number }> {
  return api(`/api/media/resume?filename=${encodeURIComponent(file.name)}`, { method: 'POST', raw: file });
}

/** An upload's failure in the owner's words: too large and wrong type say so plainly. */
export function uploadProblem(cause: unknown, what: string): string {
  if (cause instanceof ApiError) {
    if (cause.status === 413) return `That file is too large to upload. Choose a smaller ${what}.`;
    if (cause.status === 415 || (cause.status === 422 && 'file' in cause.fields))
      return `That file is not ${what === 'PDF' ? 'a PDF' : 'an image the server accepts (JPEG, PNG, WebP, GIF or SVG)'}; choose another.`;
    return cause.message;
  }
  return 'The upload failed. Please try again.';
}

export const PREVIEW_URL = '/api/content/draft/preview';

/** Whether the draft's preview answers (an iframe cannot tell a 404 from a page). */
export function previewAvailable(url: string = PREVIEW_URL): Promise<boolean> {
  return request(url, { method: 'HEAD', headers: { Accept: 'text/html' } }).then(
    () => true,
    () => false,
  );
}
