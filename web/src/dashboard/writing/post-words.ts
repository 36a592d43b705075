/** A post's fields and failures as the owner reads them: where a problem is, and what to do about a refused publish or unpublishing. */
import { ApiError } from '../../api/client';
import { sentence } from '../../api/problems';

const FIELDS: Record<string, string> = {
  title: 'The title',
  slug: 'The address',
  summary: 'The summary',
  body: 'The text',
  tags: 'The tags',
  cover: 'The cover image',
  language: 'The language',
  media: 'The images',
  at: 'The day and time',
};

/** Where a problem is: `tags[2]` is "Tag 3", `media[0].alt` "An image's description". */
export function postPlace(path: string): string {
  const tag = /^tags\[(\d+)\]$/.exec(path);
  if (tag) return `Tag ${Number(tag[1]) + 1}`;
  if (/^media\[\d+\]\.alt$/.test(path)) return "An image's description";
  return FIELDS[path] ?? FIELDS[path.replace(/[[.].*$/, '')] ?? path;
}

/** The field a problem's link goes to: a tag's is the tags', an image's the cover's. */
export function postField(path: string): string {
  if (path.startsWith('tags[')) return 'tags';
  if (path.startsWith('media[')) return /\.alt$/.test(path) ? path : 'cover';
  return path;
}

/** A refused publish or revert in the owner's words: each field's problem, or what is missing. */
export function postFailure(what: 'published' | 'reverted') {
  return (cause: unknown): string | undefined => {
    if (!(cause instanceof ApiError)) return undefined;
    if (cause.status === 404) return what === 'published' ? 'Not published: this post has no saved draft yet.' : 'Not reverted: that version is no longer kept.';
    const fields = Object.entries(cause.fields);
    if (cause.status === 422 && fields.length > 0) {
      return `Not ${what}: ${fields.map(([field, problem]) => sentence(field, problem, postPlace(field))).join(' ')}`;
    }
    return undefined;
  };
}

/** A refused unpublishing in the owner's words: what stands in its way. */
export function unpublishFailure(cause: unknown): string | undefined {
  if (!(cause instanceof ApiError)) return undefined;
  if (cause.status === 404) return 'Not unpublished: the post was never published.';
  if (cause.status === 409) return 'Not unpublished: the post is unpublished already, or its unpublishing is scheduled. Reload to see where it stands.';
  return undefined;
}
