import { describe, expect, test } from 'vitest';
import { categories, projects, projectsFor } from './projects';

describe('the project filter', () => {
  test('offers All, Frontend, Backend and Fullstack', () => {
    expect(categories).toEqual(['All', 'Frontend', 'Backend', 'Fullstack']);
  });

  test('All shows every project, in order', () => {
    expect(projectsFor('All').map((p) => p.title)).toEqual(['Portfolio', 'Food Recipes', 'Elegant Context', 'Tuk-Tuk Cambodia']);
  });

  test('a category shows exactly the projects whose stack is its lower-cased name', () => {
    expect(projectsFor('Frontend').map((p) => p.title)).toEqual(['Elegant Context', 'Tuk-Tuk Cambodia']);
    expect(projectsFor('Backend').map((p) => p.title)).toEqual(['Food Recipes']);
    expect(projectsFor('Fullstack').map((p) => p.title)).toEqual(['Portfolio']);
    for (const category of categories.slice(1)) {
      expect(projectsFor(category).every((p) => p.stack === category.toLowerCase())).toBe(true);
    }
  });

  test('every project has its own stable id', () => {
    expect(new Set(projects.map((p) => p.id)).size).toBe(projects.length);
  });

  test('every project has links, labels and a sized image', () => {
    expect(projects).toHaveLength(4);
    for (const p of projects) {
      expect(p.id).toMatch(/^[a-z0-9][a-z0-9-]{0,40}$/);
      expect(p.gitlink).toMatch(/^https:\/\//);
      expect(p.liveUrl).toMatch(/^https:\/\//);
      expect(p.technologies.length).toBeGreaterThan(1);
      expect(p.image.width / p.image.height).toBeCloseTo(1.6);
    }
  });
});
