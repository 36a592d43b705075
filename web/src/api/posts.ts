/**
 * The owner's writing: every post begun, a new one, each one's draft (with its ETag, sent back as
 * `If-Match`, as the page's), publishing now or at a moment to come, unpublishing, the versions and
 * reverting, and the preview of its page. Errors are `ApiError`s from the shared client.
 */
import { api, request } from './client';
import type { Answer } from './answer';
import type { components } from './openapi.generated';
import type { Version } from './content';

/** A post as the server keeps it. Not an `Answer`: the server leaves out `cover`, `date`, `formerSlugs` and `translationOf` when they have no value. */
export type Post = components['schemas']['Post'];

/** Where a post stands: its draft's title, slug and language, its newest version, its date and what is scheduled. */
export type PostState = Answer<components['schemas']['PostState']>;

export interface PostDraft {
  /** 0 while nothing was saved: the document is then the published one. */
  revision: number;
  document: Post;
  /** The draft's ETag: the `If-Match` of the next save. */
  etag: string;
}

const POSTS = '/api/content/posts';
const base = (id: string) => `${POSTS}/${encodeURIComponent(id)}`;

async function draftOf(response: Response): Promise<PostDraft> {
  const body = (await response.json()) as { revision: number; document: Post };
  return { ...body, etag: response.headers.get('ETag') ?? `"${body.revision}"` };
}

/** Every post begun, the newest first (by its date, else its last change; drafts never published first). */
export async function listPosts(signal?: AbortSignal): Promise<PostState[]> {
  return (await api<{ posts: PostState[] }>(POSTS, { signal })).posts;
}

/** Begins a post: its id and slug are made from the title; the language is the page's unless given. */
export async function createPost(title: string, language?: string): Promise<PostDraft> {
  return draftOf(await request(POSTS, { method: 'POST', body: language ? { title, language } : { title } }));
}

export async function loadPostDraft(id: string, signal?: AbortSignal): Promise<PostDraft> {
  return draftOf(await request(`${base(id)}/draft`, { signal }));
}

/** Saves the draft from the revision `etag`; 409 (`ApiError`) when it was saved elsewhere since. */
export async function savePostDraft(document: Post, etag: string): Promise<PostDraft> {
  return draftOf(await request(`${base(document.id)}/draft`, { method: 'PUT', body: document, headers: { 'If-Match': etag } }));
}

/**
 * Publishes the draft now, or at `at`, a date and time as a `datetime-local` field gives it
 * (`2026-12-24T09:00`), which the server reads in the owner's time zone: the answer's
 * `publishedAt` is then that moment, still to come.
 */
export function publishPost(id: string, at?: string): Promise<Version> {
  return api(`${base(id)}/publish${at ? `?at=${encodeURIComponent(at)}` : ''}`, { method: 'POST' });
}

/**
 * Unpublishes the post at once: from the answer on, every address that showed it answers as if it
 * never had. The draft stays, and a publish brings the post back at its address. 409 (`ApiError`)
 * when it is unpublished already.
 */
export function unpublishPost(id: string): Promise<Version> {
  return api(`${base(id)}/unpublish`, { method: 'POST' });
}

export async function listPostVersions(id: string, signal?: AbortSignal): Promise<Version[]> {
  return (await api<{ versions: Version[] }>(`${base(id)}/versions`, { signal })).versions;
}

export function revertPost(id: string, version: number): Promise<Version> {
  return api(`${base(id)}/versions/${version}/revert`, { method: 'POST' });
}

/** The post's page as its draft would publish it, rendered by the server (for a frame). */
export const postPreviewUrl = (id: string) => `${base(id)}/preview`;
