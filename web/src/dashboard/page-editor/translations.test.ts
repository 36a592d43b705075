import { describe, expect, it } from 'vitest';
import { defaultDocument, type ContentDocument, type Language } from '../../content/document';
import { moveItem } from './sortable-list';
import { followItems, languagesOf, missingTexts, textFields } from './translations';

function withGerman(texts: Record<string, string>): ContentDocument {
  const document = structuredClone(defaultDocument);
  document.languages = [{ tag: 'de', published: false, texts, strings: {} }];
  return document;
}
const german = (document: ContentDocument): Language => languagesOf(document)[0]!;
function edit(document: ContentDocument, change: (d: ContentDocument) => void): ContentDocument {
  const next = structuredClone(document);
  const follow = followItems(next);
  change(next);
  follow();
  return next;
}

describe('translations', () => {
  it('lists the text fields in the order the editor shows them, and what a language lacks', () => {
    const fields = textFields(defaultDocument).map((f) => f.path);
    expect(fields.slice(0, 4)).toEqual(['profile.role', 'profile.summary', 'profile.location.display', 'typewriterPhrases[0]']);
    expect(fields).toContain('experience[0].awards[0].title');
    expect(fields).not.toContain('profile.name');
    const document = withGerman({ 'profile.role': 'Webentwickler' });
    const missing = missingTexts(document, german(document)).map((f) => f.path);
    expect(missing).not.toContain('profile.role');
    expect(missing).toContain('profile.summary');
    expect(missing.length).toBe(fields.length - 1);
  });

  it('keeps a translation on its project when the projects are reordered', () => {
    const document = withGerman({ 'projects[0].title': 'Erstes', 'projects[1].title': 'Zweites', 'profile.role': 'Rolle' });
    const moved = edit(document, (d) => moveItem(d.projects, 0, 2));
    expect(german(moved).texts).toEqual({ 'projects[2].title': 'Erstes', 'projects[0].title': 'Zweites', 'profile.role': 'Rolle' });
  });

  it('drops the translations of a removed item and moves those after it', () => {
    const document = withGerman({
      'about.paragraphs[0]': 'Eins',
      'about.paragraphs[1]': 'Zwei',
      'experience[0].awards[1].title': 'Preis',
      'experience[1].title': 'Stelle',
    });
    const removed = edit(document, (d) => {
      d.about.paragraphs.splice(0, 1);
      d.experience[0]!.awards.splice(0, 1);
      moveItem(d.experience, 1, 0);
    });
    expect(german(removed).texts).toEqual({ 'about.paragraphs[0]': 'Zwei', 'experience[1].awards[0].title': 'Preis', 'experience[0].title': 'Stelle' });
  });

  it('drops translations of fields the document no longer has', () => {
    const document = withGerman({ 'projects[9].title': 'Weg', 'profile.role': 'Rolle' });
    const edited = edit(document, (d) => void (d.profile.name = 'Ada'));
    expect(german(edited).texts).toEqual({ 'profile.role': 'Rolle' });
  });

  it('leaves the keys alone when a text is edited in place', () => {
    const document = withGerman({ 'typewriterPhrases[1]': 'Zwei' });
    const edited = edit(document, (d) => void (d.typewriterPhrases[1] = 'Changed'));
    expect(german(edited).texts).toEqual({ 'typewriterPhrases[1]': 'Zwei' });
  });
});
