import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { defaultDocument, type ContentDocument } from '../../content/document';
import { OUTPUT, validatorSource } from '../../../scripts/document-validator.mjs';
import { pathOf, problemsOf } from './validate';

function edited(edit: (d: ContentDocument) => void): ContentDocument {
  const document = structuredClone(defaultDocument);
  edit(document);
  return document;
}

describe('the editor checks the document as the server does', () => {
  test('the generated validator is the schema compiled now (run scripts/document-validator.mjs when not)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(validatorSource());
  });

  test('the default document passes', () => {
    expect(problemsOf(defaultDocument)).toEqual({});
  });

  test('bounds name the field by its path, in the server words', () => {
    const problems = problemsOf(
      edited((d) => {
        d.projects[2]!.title = 'x'.repeat(101);
        d.typewriterPhrases[1] = '';
        d.social[0]!.url = 'javascript:alert(1)';
        d.projects[0]!.id = 'Not An Id';
        d.profile.name = '';
        d.contact.email = 'not-an-address';
      }),
    );
    expect(problems['projects[2].title']).toBe('must be at most 100 characters');
    expect(problems['typewriterPhrases[1]']).toBe('must not be empty');
    expect(problems['social[0].url']).toBe('must be an http, https or mailto URL');
    expect(problems['projects[0].id']).toMatch(/^must match/);
    expect(problems['profile.name']).toBe('must not be empty');
    expect(problems['contact.email']).toBe('must be an e-mail address');
  });

  test('ids are unique and image references name an item in media', () => {
    const problems = problemsOf(
      edited((d) => {
        d.projects[1]!.id = d.projects[0]!.id;
        d.profile.photo = 'nowhere';
      }),
    );
    expect(problems['projects[1].id']).toMatch(/already the id/);
    expect(problems['profile.photo']).toMatch(/not the id of an item in media/);
  });

  test('JSON pointers become the server paths', () => {
    expect(pathOf('/experience/0/awards/1/title')).toBe('experience[0].awards[1].title');
    expect(pathOf('')).toBe('body');
  });
});
