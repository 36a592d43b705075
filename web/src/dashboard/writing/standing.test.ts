import { afterEach, describe, expect, it } from 'vitest';
import type { PostState } from '../../api/posts';
import { groupPosts, postPath, publishedFrom, rememberPublished, standingOf } from './standing';

const NOW = Date.UTC(2026, 11, 5, 17, 0);
const HOUR = 3_600_000;

function post(id: string, fields: Partial<PostState> = {}): PostState {
  return { id, title: id, slug: id, language: 'en', revision: 1, version: 0, publishedAt: null, date: null, scheduledAt: null, unpublished: false, ...fields };
}

describe("a post's standing", () => {
  it('is a draft until a version is published', () => {
    expect(standingOf(post('a'), NOW)).toEqual({ kind: 'draft' });
  });

  it('is scheduled while its first version is still to come', () => {
    const at = NOW + HOUR;
    expect(standingOf(post('a', { version: 1, publishedAt: at, date: at, scheduledAt: at }), NOW)).toEqual({ kind: 'scheduled', at });
  });

  it('is live from its first publish, with an update scheduled when a newer version is to come', () => {
    const since = NOW - 48 * HOUR;
    expect(standingOf(post('a', { version: 1, publishedAt: since, date: since }), NOW)).toEqual({ kind: 'live', since, update: null, withdraw: null });
    expect(standingOf(post('a', { version: 2, publishedAt: NOW + HOUR, date: since, scheduledAt: NOW + HOUR }), NOW)).toEqual({
      kind: 'live',
      since,
      update: NOW + HOUR,
      withdraw: null,
    });
  });

  it('is unpublished once a version withdrew it, and live until a scheduled one does', () => {
    const since = NOW - 48 * HOUR;
    expect(standingOf(post('a', { version: 2, publishedAt: NOW - HOUR, date: since, unpublished: true }), NOW)).toEqual({ kind: 'unpublished', since: NOW - HOUR });
    expect(standingOf(post('a', { version: 2, publishedAt: NOW + HOUR, date: since, scheduledAt: NOW + HOUR, unpublished: true }), NOW)).toEqual({
      kind: 'live',
      since,
      update: null,
      withdraw: NOW + HOUR,
    });
  });

  it('is live once its moment has passed, before the list is asked again', () => {
    const at = NOW - 1000;
    expect(standingOf(post('a', { version: 1, publishedAt: at, date: at, scheduledAt: null }), NOW).kind).toBe('live');
  });
});

describe('the Writing view’s groups', () => {
  it('lists drafts as the server does, the scheduled soonest first and the published newest first', () => {
    const posts = [
      post('draft-new'),
      post('draft-old'),
      post('later', { version: 1, date: NOW + 2 * HOUR, publishedAt: NOW + 2 * HOUR, scheduledAt: NOW + 2 * HOUR }),
      post('sooner', { version: 1, date: NOW + HOUR, publishedAt: NOW + HOUR, scheduledAt: NOW + HOUR }),
      post('old', { version: 3, date: NOW - 72 * HOUR, publishedAt: NOW - HOUR }),
      post('recent', { version: 1, date: NOW - HOUR, publishedAt: NOW - HOUR }),
      post('withdrawn', { version: 2, date: NOW - 72 * HOUR, publishedAt: NOW - HOUR, unpublished: true }),
    ];
    const groups = groupPosts(posts, NOW);
    expect(groups.drafts.map((p) => p.id)).toEqual(['draft-new', 'draft-old']);
    expect(groups.scheduled.map((p) => p.id)).toEqual(['sooner', 'later']);
    expect(groups.published.map((p) => p.id)).toEqual(['recent', 'old']);
    expect(groups.unpublished.map((p) => p.id)).toEqual(['withdrawn']);
  });
});

describe("a post's address", () => {
  it('has no prefix in the page’s language and its language’s in another', () => {
    expect(postPath('hello', 'en', 'en')).toBe('/writing/hello/');
    expect(postPath('hallo', 'de', 'en')).toBe('/de/writing/hallo/');
    expect(postPath('ola', 'pt-BR', 'en')).toBe('/pt-br/writing/ola/');
  });
});

describe('what this browser knows of the newest version', () => {
  afterEach(() => localStorage.clear());

  it('is known while the version remembered is the newest, and forgotten once another is', () => {
    rememberPublished('hello', { version: 2, revision: 7, slug: 'hello' });
    expect(publishedFrom('hello', 2)).toEqual({ version: 2, revision: 7, slug: 'hello' });
    expect(publishedFrom('hello', 3)).toBeNull();
    expect(publishedFrom('other', 2)).toBeNull();
  });
});
