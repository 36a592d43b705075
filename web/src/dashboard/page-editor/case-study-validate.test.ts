import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { CaseStudy } from '../../content/document';
import DEFAULTS from '../../content/default-case-studies.json';
import { CASE_STUDY_OUTPUT, CASE_STUDY_SCHEMA, validatorSource } from '../../../scripts/document-validator.mjs';
import { caseStudyProblems, pruneCaseStudyMedia } from './case-study-validate';

const studies = DEFAULTS as CaseStudy[];

function edited(edit: (study: CaseStudy) => void): CaseStudy {
  const study = structuredClone(studies[0]!);
  edit(study);
  return study;
}

describe('the editor checks a case study as the server does', () => {
  test('the generated validator is the case study schema compiled now (run scripts/document-validator.mjs when not)', () => {
    expect(readFileSync(CASE_STUDY_OUTPUT, 'utf8')).toBe(validatorSource(CASE_STUDY_SCHEMA));
  });

  test("the placeholder's case studies pass", () => {
    for (const study of studies) expect(caseStudyProblems(study)).toEqual({});
  });

  test('a case study just begun names each text still to write', () => {
    const begun: CaseStudy = {
      project: 'shop',
      slug: 'shop',
      summary: '',
      problem: '',
      role: '',
      team: '',
      constraints: '',
      decisions: [],
      outcome: '',
      figures: [],
      gallery: [],
      links: [],
      technologies: [],
      media: [],
    };
    expect(Object.keys(caseStudyProblems(begun)).sort()).toEqual(['outcome', 'problem', 'role', 'summary']);
    expect(caseStudyProblems(begun).summary).toBe('must not be empty');
  });

  test('bounds, slugs, links, numbers and pictures are named by their paths, in the server words', () => {
    const problems = caseStudyProblems(
      edited((s) => {
        s.slug = 'Not A Slug';
        s.summary = 'x'.repeat(301);
        s.decisions.push({ title: '', why: 'Because.' });
        s.figures[0]!.value = Number.NaN;
        s.figures[1]!.label = '';
        s.links.push({ kind: 'code', label: 'Code', url: 'javascript:alert(1)' });
        s.gallery[0]!.image = 'nowhere';
        s.technologies.push('');
      }),
    );
    expect(problems.slug).toMatch(/^must match/);
    expect(problems.summary).toBe('must be at most 300 characters');
    expect(problems[`decisions[${studies[0]!.decisions.length}].title`]).toBe('must not be empty');
    expect(problems['figures[0].value']).toBe('must be a number, such as 38 or 1.5');
    expect(problems['figures[1].label']).toBe('must not be empty');
    expect(problems[`links[${studies[0]!.links.length}].url`]).toBe('must be an http, https or mailto URL');
    expect(problems['gallery[0].image']).toBe('"nowhere" is not the id of an item in media');
    expect(problems[`technologies[${studies[0]!.technologies.length}]`]).toBe('must not be empty');
  });

  test('a figure saved as null (a number that was not one) is still no number', () => {
    const study = edited((s) => void (s.figures[0]!.value = null as unknown as number));
    expect(caseStudyProblems(study)['figures[0].value']).toBe('must be a number, such as 38 or 1.5');
  });

  test('media no picture shows are dropped', () => {
    const study = edited((s) => s.gallery.splice(0, 1));
    const kept = studies[0]!.gallery.slice(1).map((p) => p.image);
    pruneCaseStudyMedia(study);
    expect(study.media.map((m) => m.id)).toEqual(kept);
  });
});
