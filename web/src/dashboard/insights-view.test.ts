import { describe, expect, test } from 'vitest';
import { clickLabel } from './insights-view';

describe('counted links in words', () => {
  test('a project link is its title and which link', () => {
    expect(clickLabel('project:portfolio:code')).toBe('Portfolio: code');
    expect(clickLabel('project:food-recipes:demo')).toBe('Food Recipes: live demo');
  });

  test('a social link is its site, and an unknown id is shown as it is', () => {
    expect(clickLabel('social:github')).toBe('GitHub profile');
    expect(clickLabel('(other)')).toBe('(other)');
  });
});
