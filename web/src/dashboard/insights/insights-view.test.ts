import { describe, expect, test } from 'vitest';
import { defaultDocument } from '../../content/document';
import { caseStudyLabel, postLabel, postsRead } from '../shared/format';
import { clickLabel } from './insights-view';

const projects = defaultDocument.projects;
const [first, second] = projects as [(typeof projects)[0], (typeof projects)[0]];

describe('counted links in words', () => {
  test('a project link is its title and which link', () => {
    expect(clickLabel(`project:${first.id}:code`, projects)).toBe(`${first.title}: code`);
    expect(clickLabel(`project:${second.id}:demo`, projects)).toBe(`${second.title}: live demo`);
    expect(clickLabel('project:gone:demo', projects)).toBe('gone: live demo');
  });

  test('a social link is its site, and an unknown id is shown as it is', () => {
    expect(clickLabel('social:github', projects)).toBe('GitHub profile');
    expect(clickLabel('(other)', projects)).toBe('(other)');
  });
});

describe('case studies in words', () => {
  test("a case study is its project's title, or its id once the project has left the page", () => {
    expect(caseStudyLabel({ project: first.id, title: first.title })).toBe(first.title);
    expect(caseStudyLabel({ project: 'gone', title: null })).toBe('gone (no longer on the page)');
    expect(caseStudyLabel({ project: '(other)' })).toBe('Others');
  });
});

describe('posts in words', () => {
  test("a post is its title, or its id once it is no longer published", () => {
    expect(postLabel({ post: 'hello-world', title: 'Hello, World!' })).toBe('Hello, World!');
    expect(postLabel({ post: 'gone', title: null })).toBe('gone (no longer published)');
    expect(postLabel({ post: '(other)' })).toBe('Others');
  });

  test("a link's readers read a post, or several", () => {
    expect(postsRead([{ post: 'hello-world', title: 'Hello, World!' }])).toBe('Read the post “Hello, World!”.');
    expect(postsRead([{ post: 'a', title: 'A' }, { post: 'gone', title: null }])).toBe('Read the posts “A” and “gone (no longer published)”.');
  });
});
