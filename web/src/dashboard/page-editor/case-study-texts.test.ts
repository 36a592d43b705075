import { describe, expect, it } from 'vitest';
import type { CaseStudy } from '../../content/document';
import defaults from '../../content/default-case-studies.json';
import { caseStudyProblems } from './case-study-validate';
import { caseTextFields, followCaseItems, missingCaseTexts, translatedStudy } from './case-study-texts';
import { moveItem } from './sortable-list';

const placeholder = (): CaseStudy => structuredClone(defaults[0] as CaseStudy);

function edit(study: CaseStudy, change: (d: CaseStudy) => void): CaseStudy {
  const next = structuredClone(study);
  const follow = followCaseItems(next);
  change(next);
  follow();
  return next;
}

describe("a case study's translations", () => {
  it("lists its texts as the server does, and what a language still lacks", () => {
    const study = placeholder();
    const paths = caseTextFields(study).map((f) => f.path);
    expect(paths.slice(0, 6)).toEqual(['summary', 'problem', 'role', 'team', 'constraints', 'outcome']);
    expect(paths).toContain('decisions[0].why');
    expect(paths).toContain(`media[${study.media.length - 1}].alt`);
    const filled = caseTextFields(study).filter((f) => f.value.trim() !== '').length;
    expect(missingCaseTexts(study, 'de')).toHaveLength(filled);
    study.translations = [{ tag: 'de', texts: { summary: 'Zusammenfassung' }, same: ['figures[0].unit'] }];
    const missing = missingCaseTexts(study, 'DE').map((f) => f.path);
    expect(missing).not.toContain('summary');
    expect(missing).not.toContain('figures[0].unit');
    expect(missing).toHaveLength(filled - (study.figures[0]!.unit ? 2 : 1));
  });

  it('shows each language its own words, the default wording where it has none', () => {
    const study = placeholder();
    study.translations = [{ tag: 'de', texts: { summary: 'Zusammenfassung', 'decisions[0].title': ' ' } }];
    const german = translatedStudy(study, 'de');
    expect(german.summary).toBe('Zusammenfassung');
    expect(german.decisions[0]!.title).toBe(study.decisions[0]!.title);
    expect(german.translations).toBeUndefined();
  });

  it('keeps translations on their items when a list is reordered, and drops those of a removed item', () => {
    let study = placeholder();
    expect(study.decisions.length).toBeGreaterThanOrEqual(2);
    study.translations = [{ tag: 'de', texts: { 'decisions[0].title': 'Erste', 'decisions[1].title': 'Zweite', summary: 'Kurz' }, same: ['figures[0].unit'] }];
    study = edit(study, (d) => moveItem(d.decisions, 0, 1));
    expect(study.translations![0]!.texts).toEqual({ 'decisions[0].title': 'Zweite', 'decisions[1].title': 'Erste', summary: 'Kurz' });
    study = edit(study, (d) => void d.figures.splice(0, 1));
    expect(study.translations![0]!.same).toBeUndefined();
    study = edit(study, (d) => void d.decisions.splice(0, 1));
    expect(study.translations![0]!.texts).toEqual({ 'decisions[0].title': 'Erste', summary: 'Kurz' });
  });

  it("bounds a translated text like its field, named by the translation's path", () => {
    const study = placeholder();
    study.translations = [{ tag: 'de', texts: { summary: 'x'.repeat(301) } }];
    const problems = caseStudyProblems(study);
    expect(Object.keys(problems)).toEqual(['translations[0].texts.summary']);
  });
});
