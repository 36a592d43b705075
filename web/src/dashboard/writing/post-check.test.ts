import { describe, expect, it } from 'vitest';
import type { Post } from '../../api/posts';
import { imageSrc, postProblems, prunePostMedia, tagKey } from './post-check';
import { postFailure, postField, postPlace } from './post-words';
import { ApiError } from '../../api/client';

function image(id: string) {
  return {
    id,
    alt: '',
    width: 1280,
    height: 800,
    sources: [640, 1280].map((width) => ({ src: `/media/${id}-${width}.webp`, width })),
  };
}

function post(fields: Partial<Post> = {}): Post {
  return { id: 'hello', title: 'Hello', slug: 'hello', summary: '', body: 'Write here.\n', tags: [], media: [], language: 'en', ...fields };
}

describe('a post checked before it is saved', () => {
  it('takes a post as the server begins it', () => {
    expect(postProblems(post())).toEqual({});
  });

  it('names each field the server would refuse, in its words', () => {
    expect(
      postProblems(
        post({
          title: '',
          slug: 'Hello World',
          summary: 's'.repeat(301),
          body: '',
          tags: ['Rust', 'rust', 't'.repeat(41)],
          cover: 'missing',
        }),
      ),
    ).toEqual({
      title: 'must not be empty',
      slug: 'must match ^[a-z0-9]+(-[a-z0-9]+)*$',
      summary: 'must be at most 300 characters',
      body: 'must not be empty',
      'tags[1]': '"rust" is already a tag of the post',
      'tags[2]': 'must be at most 40 characters',
      cover: '"missing" is not the id of an item in media',
    });
  });

  it('counts characters, not UTF-16 units, and refuses control characters but tabs and line breaks', () => {
    expect(postProblems(post({ title: '😀'.repeat(160) }))).toEqual({});
    expect(postProblems(post({ title: 'a\u0007b' }))).toEqual({ title: 'must not contain control characters' });
    expect(postProblems(post({ body: 'a\tb\r\nc' }))).toEqual({});
  });

  it('bounds the tags and the uploads', () => {
    const problems = postProblems(post({ tags: Array.from({ length: 11 }, (_, i) => `tag ${i}`), media: Array.from({ length: 41 }, (_, i) => image(`i${i}`)) }));
    expect(problems.tags).toBe('must have at most 10 items');
    expect(problems.media).toBe('must have at most 40 items');
  });

  it('tells tags apart as their pages do', () => {
    expect(tagKey('Café Society')).toBe(tagKey('cafe-society'));
    expect(tagKey('日本')).not.toBe(tagKey('中国'));
  });
});

describe("a post's uploads", () => {
  it('keeps those the cover or the text uses, and names an image by its widest file', () => {
    const draft = post({ cover: 'cover', media: [image('cover'), image('used'), image('gone')], body: '![A chart](/media/used-1280.webp)\n' });
    prunePostMedia(draft);
    expect(draft.media.map((item) => item.id)).toEqual(['cover', 'used']);
    expect(imageSrc(draft, 'used')).toBe('/media/used-1280.webp');
    expect(imageSrc(draft, 'gone')).toBeUndefined();
  });
});

describe("a post's problems as the owner reads them", () => {
  it('names where each is and the field its link goes to', () => {
    expect(postPlace('slug')).toBe('The address');
    expect(postPlace('tags[2]')).toBe('Tag 3');
    expect(postPlace('media[0].alt')).toBe("An image's description");
    expect(postField('tags[2]')).toBe('tags');
    expect(postField('media[1].sources')).toBe('cover');
  });

  it('says why a publish was refused', () => {
    const explain = postFailure('published');
    expect(explain(new ApiError(422, 'validation', 'invalid', { language: 'is not a language of the published page: publish the language first' }))).toBe(
      'Not published: The language is not a language of the published page: publish the language first.',
    );
    expect(explain(new ApiError(404, 'not_found', 'gone'))).toBe('Not published: this post has no saved draft yet.');
    expect(explain(new Error('offline'))).toBeUndefined();
  });
});
