import { describe, expect, it } from 'vitest';
import { defaultDocument, type ContentDocument, type Language } from '../../content/document';
import { moveItem } from './sortable-list';
import english from '../../i18n/en.json';
import { fixedTextName, NAMED } from './fixed-text-names';
import { followItems, languagesOf, markSame, missingTexts, SAMEABLE, textFields } from './translations';

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
    expect(fields.slice(0, 5)).toEqual(['profile.role', 'profile.summary', 'profile.intro', 'profile.location.display', 'typewriterPhrases[0]']);
    expect(fields.slice(-4)).toEqual(['sections.contact.title', 'sections.contact.lead', 'footer.title', 'footer.line']);
    expect(fields).toContain('experience[0].awards[0].title');
    expect(fields).not.toContain('profile.name');
    const document = withGerman({ 'profile.role': 'Webentwickler' });
    const missing = missingTexts(document, german(document)).map((f) => f.path);
    expect(missing).not.toContain('profile.role');
    expect(missing).toContain('profile.summary');
    // A lead left empty (About's, Experience's) needs no translation.
    const filled = textFields(defaultDocument).filter((f) => f.value !== '');
    expect(fields.length - filled.length).toBe(2);
    expect(missing.length).toBe(filled.length - 1);
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

  it('counts a text marked the same as present, keeps the marks sorted, and moves them with their items', () => {
    const document = withGerman({ 'experience[0].date': 'Datum', 'profile.role': 'Rolle' });
    const language = german(document);
    markSame(language, ['profile.location.display', 'experience[0].date'], true);
    expect(language.same).toEqual(['experience[0].date', 'profile.location.display']);
    // Its translation goes: the default language's text is shown.
    expect(language.texts).toEqual({ 'profile.role': 'Rolle' });
    const missing = missingTexts(document, language).map((f) => f.path);
    expect(missing).not.toContain('experience[0].date');
    expect(missing).toContain('experience[0].title');
    const moved = edit(document, (d) => moveItem(d.experience, 0, 1));
    expect(german(moved).same).toEqual(['experience[1].date', 'profile.location.display']);
    const removed = edit(moved, (d) => void d.experience.splice(1, 1));
    expect(german(removed).same).toEqual(['profile.location.display']);
    markSame(german(removed), ['profile.location.display'], false);
    expect(german(removed).same).toBeUndefined();
  });

  it('marks dates, names and places as the texts that may be the same', () => {
    const sameable = textFields(defaultDocument).filter((f) => SAMEABLE.test(f.path)).map((f) => f.path);
    expect(sameable).toContain('profile.location.display');
    expect(sameable).toContain('projects[0].title');
    expect(sameable).toContain('education[1].place');
    expect(sameable).toContain('experience[0].date');
    expect(sameable).not.toContain('experience[0].title');
    expect(sameable).not.toContain('projects[0].description');
  });

  it('names each image by where it is used, never by its id', () => {
    const images = textFields(defaultDocument).filter((f) => f.path.startsWith('media['));
    const labels = images.map((f) => f.label);
    expect(labels).toContain('Profile photo');
    expect(labels).toContain(`Image of project “${defaultDocument.projects[0]!.title}”`);
    expect(labels.some((label) => label.startsWith('Certificate of “'))).toBe(true);
    for (const field of images) {
      expect(field.media).toBeDefined();
      expect(field.label).not.toContain(field.media!.id);
    }
  });

  it('names every fixed text of the page, and no other', () => {
    const keys = [...new Set(Object.keys(english).map((key) => key.split('#')[0]!))].sort();
    expect([...NAMED].sort()).toEqual(keys);
    for (const key of Object.keys(english)) expect(fixedTextName(key)).not.toContain(key.split('#')[0]);
    expect(fixedTextName('hero.viewWork')).toBe('Hero: button to the projects');
    expect(fixedTextName('form.sent')).toBe('Contact form: the message after sending');
    expect(fixedTextName('projects.shown#one')).toBe('Projects: how many are shown (one)');
    expect(fixedTextName('projects.shown#other')).toBe('Projects: how many are shown (several)');
  });
});
