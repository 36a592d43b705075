import { describe, expect, test } from 'vitest';
import { ApiError } from '../../api/client';
import { caseStudyFailure } from './case-study-editor';

describe("a case study's failed publish, in the owner's words", () => {
  test('a project not on the live page says to publish the page first', () => {
    const cause = new ApiError(422, 'validation_failed', 'project: is not on the published page', {
      project: 'is not on the published page: publish the page with this project first',
    });
    expect(caseStudyFailure(cause)).toBe(
      'Not published: this project is not on the live page yet. Publish the page with this project first, then its case study.',
    );
  });

  test('no saved draft says to fill it in first', () => {
    expect(caseStudyFailure(new ApiError(404, 'not_found', 'Not found'))).toMatch(/^Not published: this case study has no saved draft yet\./);
  });

  test("another field's problem is said as a sentence", () => {
    const cause = new ApiError(422, 'validation_failed', 'slug', { slug: '"shop" is the address of another case study (or was): choose another' });
    expect(caseStudyFailure(cause)).toBe('Not published: "shop" is the address of another case study (or was): choose another.');
  });

  test("anything else keeps the server's own message", () => {
    expect(caseStudyFailure(new ApiError(500, 'internal', 'Something went wrong'))).toBeUndefined();
    expect(caseStudyFailure(new Error('offline'))).toBeUndefined();
  });
});
