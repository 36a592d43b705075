import { describe, expect, test } from 'vitest';
import { defaultDocument } from './document';
import { imageFor } from './media';
import { categories, projectsFor } from './projects';

const projects = defaultDocument.projects;
const titles = (list: readonly { title: string }[]) => list.map((p) => p.title);

describe('the project filter', () => {
  test('offers All, Frontend, Backend and Fullstack', () => {
    expect(categories).toEqual(['All', 'Frontend', 'Backend', 'Fullstack']);
  });

  test('All shows every project, in order', () => {
    expect(titles(projectsFor('All', projects))).toEqual(titles(projects));
  });

  test('a category shows exactly the projects whose stack is its lower-cased name', () => {
    for (const category of categories.slice(1)) {
      const shown = projectsFor(category, projects);
      expect(shown.every((p) => p.stack === category.toLowerCase())).toBe(true);
      expect(titles(shown)).toEqual(titles(projects.filter((p) => p.stack === category.toLowerCase())));
    }
    const counted = categories.slice(1).reduce((sum, category) => sum + projectsFor(category, projects).length, 0);
    expect(counted).toBe(projects.length);
  });
});

describe('the document images', () => {
  test('a bundled source resolves to the built file, every width in the srcset', () => {
    for (const project of projects) {
      const image = imageFor(defaultDocument, project.image);
      const item = defaultDocument.media.find((m) => m.id === project.image);
      expect(image, project.image).toBeDefined();
      expect(image?.srcSet.split(', ')).toHaveLength(item?.sources.length ?? -1);
      expect(image?.alt).toBe(item?.alt);
    }
  });

  test('an uploaded source is served as it is', () => {
    const document = {
      ...defaultDocument,
      media: [{ id: 'up', alt: 'Upload', width: 800, height: 500, sources: [{ src: '/media/abc-400.webp', width: 400 }] }],
    };
    expect(imageFor(document, 'up')).toEqual({
      src: '/media/abc-400.webp',
      srcSet: '/media/abc-400.webp 400w',
      width: 800,
      height: 500,
      alt: 'Upload',
    });
    expect(imageFor(document, 'missing')).toBeUndefined();
  });
});
