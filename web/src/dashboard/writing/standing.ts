/**
 * Where a post stands, from the server's list (`GET /api/content/posts`): a draft never published,
 * scheduled (its first version still to come), live (with an update or its unpublishing perhaps
 * scheduled) or unpublished; the Writing view's groups; and the moments as the owner reads them,
 * in their own locale and time.
 */
import type { PostState } from '../../api/posts';

export type Standing =
  | { kind: 'draft' }
  /** Not shown by any address until `at`. */
  | { kind: 'scheduled'; at: number }
  /**
   * Live since `since` (its first publish); a newer version may be scheduled for `update`, or its
   * unpublishing for `withdraw`.
   */
  | { kind: 'live'; since: number; update: number | null; withdraw: number | null }
  /** Published once, unpublished since `since`: no address shows it. */
  | { kind: 'unpublished'; since: number };

export function standingOf(post: PostState, now: number): Standing {
  if (post.version === 0) return { kind: 'draft' };
  if (post.unpublished && post.scheduledAt === null) return { kind: 'unpublished', since: post.publishedAt ?? now };
  // `date` is its first publish's moment: a post whose first version is still to come is not live.
  const first = post.date ?? post.publishedAt ?? now;
  if (post.scheduledAt !== null && !post.unpublished && first > now) return { kind: 'scheduled', at: post.scheduledAt };
  return {
    kind: 'live',
    since: first,
    update: post.unpublished ? null : post.scheduledAt,
    withdraw: post.unpublished ? post.scheduledAt : null,
  };
}

export interface Groups {
  /** Never published, as the server lists them (the newest change first). */
  drafts: PostState[];
  /** The soonest first. */
  scheduled: PostState[];
  /** The newest first. */
  published: PostState[];
  /** The most recently unpublished first. */
  unpublished: PostState[];
}

export function groupPosts(posts: readonly PostState[], now: number): Groups {
  const groups: Groups = { drafts: [], scheduled: [], published: [], unpublished: [] };
  const when = new Map<PostState, number>();
  for (const post of posts) {
    const standing = standingOf(post, now);
    if (standing.kind === 'draft') {
      groups.drafts.push(post);
    } else if (standing.kind === 'scheduled') {
      groups.scheduled.push(post);
      when.set(post, standing.at);
    } else if (standing.kind === 'live') {
      groups.published.push(post);
      when.set(post, standing.since);
    } else {
      groups.unpublished.push(post);
      when.set(post, standing.since);
    }
  }
  groups.scheduled.sort((a, b) => when.get(a)! - when.get(b)!);
  groups.published.sort((a, b) => when.get(b)! - when.get(a)!);
  groups.unpublished.sort((a, b) => when.get(b)! - when.get(a)!);
  return groups;
}

const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export { momentText } from '../shared/format';
/** A day gone, as the owner reads it: `5 Dec 2026`. */
export const dayText = (ms: number) => DAY.format(ms);

/** The post's address: `/writing/<slug>/` in the page's language, `/de/writing/<slug>/` in another. */
export function postPath(slug: string, language: string, pageLanguage: string): string {
  const prefix = language.toLowerCase() === pageLanguage.toLowerCase() ? '' : `/${language.toLowerCase()}`;
  return `${prefix}/writing/${slug}/`;
}

/**
 * What this browser knows of the post's newest version: the draft's revision and slug it was
 * published from (remembered when it is published or reverted here). The server's list says which
 * version is newest but not which draft it was made from: known only while that version is the
 * one remembered.
 */
export interface PublishedFrom {
  version: number;
  revision: number;
  slug: string;
}

const key = (id: string) => `portfolio:post-editor:published:${id}`;

export function rememberPublished(id: string, from: PublishedFrom): void {
  try {
    localStorage.setItem(key(id), JSON.stringify(from));
  } catch {
    // Storage full or refused: the bar then says less, nothing else changes.
  }
}

/** The remembered version, if it is still the newest (`version`); else nothing is known. */
export function publishedFrom(id: string, version: number): PublishedFrom | null {
  try {
    const from = JSON.parse(localStorage.getItem(key(id)) ?? 'null') as PublishedFrom | null;
    return from?.version === version ? from : null;
  } catch {
    return null;
  }
}
