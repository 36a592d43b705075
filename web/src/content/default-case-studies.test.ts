import { describe, expect, test } from 'vitest';
import studiesJson from './default-case-studies.json';
import documentJson from './default-document.json';
import type { CaseStudy, ContentDocument } from './document.generated';
import { caseStudyBundled } from './case-study-media';
import { bundled } from './media';

const studies = studiesJson as CaseStudy[];
const page = documentJson as ContentDocument;

describe("the placeholder's case studies", () => {
  test('are two, each of a different project of the default document', () => {
    expect(Array.isArray(studiesJson)).toBe(true);
    expect(studies.map((study) => study.project)).toEqual(['portfolio', 'food-recipes']);
    const ids = page.projects.map((project) => project.id);
    for (const study of studies) expect(ids).toContain(study.project);
    expect(new Set(studies.map((study) => study.slug)).size).toBe(studies.length);
  });

  test('leave the four project cards as they are', () => {
    expect(page.projects.map((project) => project.id)).toEqual([
      'portfolio',
      'food-recipes',
      'elegant-context',
      'tuk-tuk-cambodia',
    ]);
  });

  test('show each gallery image from the bundled files, with a description, never carried by /', () => {
    for (const study of studies) {
      expect(study.gallery).toHaveLength(2);
      for (const picture of study.gallery) {
        const item = study.media.find((entry) => entry.id === picture.image);
        expect(item, picture.image).toBeDefined();
        expect(item!.alt.length).toBeGreaterThan(0);
        expect(item!.width).toBe(Math.max(...item!.sources.map((source) => source.width)));
        for (const source of item!.sources) {
          expect(source.src).toMatch(/^images\/case-studies\/[a-z0-9-]+-\d+\.webp$/);
          expect(caseStudyBundled[source.src], source.src).toBeDefined();
          expect(bundled[source.src], 'left out of what / carries').toBeUndefined();
        }
      }
    }
  });
});
