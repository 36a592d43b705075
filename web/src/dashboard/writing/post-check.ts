/**
 * A post checked as the server checks it before a save (`check_post`, `server/src/content/
 * validate.rs`), in the server's words and by its paths, so that a problem found here and one in a
 * `422` land on the same field: the bounds of its schema (`content/src/post.rs`), its tags
 * unique, its cover one of its media. Its Markdown (raw HTML, a link it refuses, an image that is
 * not one of its uploads, with the line) is the server's to check.
 */
import type { Post } from '../../api/posts';
import type { Problems } from '../shared/draft/draft-source';

/** The slugs the server takes (`SLUG_PATTERN`). */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const SLUG = new RegExp(SLUG_PATTERN);
/** What the server refuses in any text (`NO_CONTROL_PATTERN`): control characters but tab and line breaks. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const LIMITS = { title: 160, slug: 80, summary: 300, body: 100_000, tags: 10, tag: 40, media: 40, alt: 200 } as const;

const length = (text: string) => [...text].length;

/** A text's first problem: empty (when required), too long, or with a control character. */
function textProblem(text: string, max: number, required: boolean): string | undefined {
  if (required && text.length === 0) return 'must not be empty';
  if (length(text) > max) return `must be at most ${max} characters`;
  if (CONTROL.test(text)) return 'must not contain control characters';
  return undefined;
}

/**
 * A tag as the server tells two apart (`tag_slug`: its page's address): Latin letters without
 * their accents and digits, in lower case, the rest dashes; a tag without a Latin letter or digit
 * as it is, in lower case.
 */
export function tagKey(tag: string): string {
  if (!/[A-Za-z0-9]/.test(tag)) return tag.trim().toLowerCase();
  const folded = tag.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export function postProblems(post: Post): Problems {
  const problems: Problems = {};
  const add = (path: string, problem: string | undefined) => {
    if (problem && !(path in problems)) problems[path] = problem;
  };
  add('title', textProblem(post.title, LIMITS.title, true));
  add('slug', post.slug === '' ? 'must not be empty' : length(post.slug) > LIMITS.slug ? `must be at most ${LIMITS.slug} characters` : undefined);
  add('slug', SLUG.test(post.slug) ? undefined : `must match ${SLUG_PATTERN}`);
  add('summary', textProblem(post.summary, LIMITS.summary, false));
  add('body', textProblem(post.body, LIMITS.body, true));
  if (post.tags.length > LIMITS.tags) add('tags', `must have at most ${LIMITS.tags} items`);
  const tags = new Set<string>();
  post.tags.forEach((tag, i) => {
    add(`tags[${i}]`, textProblem(tag, LIMITS.tag, true));
    if (tags.has(tagKey(tag))) add(`tags[${i}]`, `"${tag}" is already a tag of the post`);
    tags.add(tagKey(tag));
  });
  if (post.media.length > LIMITS.media) add('media', `must have at most ${LIMITS.media} items`);
  const media = new Set<string>();
  post.media.forEach((item, i) => {
    add(`media[${i}].alt`, textProblem(item.alt, LIMITS.alt, false));
    if (media.has(item.id)) add(`media[${i}].id`, `"${item.id}" is already the id of another item`);
    media.add(item.id);
  });
  if (post.cover && !media.has(post.cover)) add('cover', `"${post.cover}" is not the id of an item in media`);
  return problems;
}

/** Where an image's files are: the body refers to one of them. */
const sourcesOf = (post: Post, id: string) => post.media.find((item) => item.id === id)?.sources ?? [];

/**
 * The uploads neither the cover nor the text uses any more, dropped (inside an edit), so that the
 * post does not grow with each upload. Run when an image is added or the cover changes, never as
 * the owner types: an image's line cut to be pasted elsewhere keeps its upload.
 */
export function prunePostMedia(post: Post): void {
  post.media = post.media.filter((item) => item.id === post.cover || item.sources.some((source) => post.body.includes(source.src)));
}

/** The address the text names an upload by: its widest file (the page gives the browser every width). */
export function imageSrc(post: Post, id: string): string | undefined {
  return sourcesOf(post, id).reduce<{ src: string; width: number } | undefined>((widest, source) => (!widest || source.width > widest.width ? source : widest), undefined)?.src;
}
