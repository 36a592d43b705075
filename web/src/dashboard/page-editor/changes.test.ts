import { describe, expect, it } from 'vitest';
import { defaultDocument, type ContentDocument } from '../../content/document';
import { draftChanges } from './changes';
import { fixedTextName } from './fixed-text-names';

function copy(): ContentDocument {
  return structuredClone(defaultDocument);
}

const names = (live: ContentDocument, draft: ContentDocument) => draftChanges(live, draft).map((c) => c.name);

describe('the draft’s changes from the live page', () => {
  it('finds none in the same document, nor where one only lacks what the other has empty or by default', () => {
    expect(draftChanges(defaultDocument, copy())).toEqual([]);
    const older = copy();
    delete older.language;
    delete older.strings;
    delete older.languages;
    const draft = { ...copy(), language: 'en', strings: {}, languages: [] };
    expect(draftChanges(older, draft)).toEqual([]);
  });

  it('names each changed field by its part and its label in the form', () => {
    const draft = copy();
    draft.profile.role = 'Python developer';
    draft.profile.location.mapsQuery = 'Berlin';
    draft.projects[1]!.title = 'Another title';
    draft.projects[0]!.technologies.push('Rust');
    draft.experience[0]!.place = 'Acme';
    draft.appearance.accent = '#0f766e';
    draft.appearance.sections.skills = false;
    expect(draftChanges(defaultDocument, draft)).toEqual([
      { path: 'profile.role', kind: 'changed', part: 'profile', name: 'Profile: Role' },
      { path: 'profile.location.mapsQuery', kind: 'changed', part: 'profile', name: 'Profile: Location for the map link' },
      { path: 'projects[0].technologies', kind: 'changed', part: 'projects', name: "Projects: 1st project's technologies" },
      { path: 'projects[1].title', kind: 'changed', part: 'projects', name: "Projects: 2nd project's title" },
      { path: 'experience[0].place', kind: 'changed', part: 'experience', name: "Experience: 1st job's company" },
      { path: 'appearance.accent', kind: 'changed', part: 'appearance', name: 'Appearance: Accent colour' },
      { path: 'appearance.sections.skills', kind: 'changed', part: 'appearance', name: 'Appearance: Sections shown (skills)' },
    ]);
  });

  it('counts an item added or removed anywhere in a list as one change, the others unchanged', () => {
    const draft = copy();
    expect(draft.typewriterPhrases).toHaveLength(3);
    draft.projects.splice(1, 1);
    draft.typewriterPhrases.push('A new phrase');
    draft.skills.unshift({ name: 'Rust', logo: draft.skills[0]!.logo });
    expect(names(defaultDocument, draft)).toEqual([
      'Typewriter phrases: 4th phrase (added)',
      'Skills: 1st skill (added)',
      'Projects: 2nd project (removed)',
    ]);
  });

  it('names a field within an item within an item, and a field the table does not know (one an older document lacks) by its keys', () => {
    const draft = copy();
    const entry = draft.education[0]!;
    expect(entry.awards).toEqual([]);
    entry.awards.push({ title: 'Prize', certificate: draft.profile.photo });
    draft.experience[0]!.date = '2020 - 2024';
    draft.profile.location.display = 'Berlin';
    draft.profile.intro = 'Hello';
    (draft.profile as unknown as { pronouns: string }).pronouns = 'they';
    draft.footer.since = 2024;
    draft.sections.skills.lead = '';
    expect(names(defaultDocument, draft)).toEqual([
      'Profile: Intro',
      'Profile: Location',
      'Profile: Pronouns',
      'Skills: Lead',
      "Experience: 1st job's dates",
      "Education: 1st school's 1st award (added)",
      'Footer: First year of the copyright',
    ]);
  });

  it('compares images by id, only by their description, and languages by their tag', () => {
    const live = copy();
    live.languages = [
      { tag: 'de', published: true, texts: { 'profile.role': 'Entwickler' }, strings: {} },
      { tag: 'fr', published: false, texts: {}, strings: {} },
    ];
    const draft = structuredClone(live);
    draft.media.reverse();
    draft.media.push({ id: 'upload-1', alt: 'New', width: 1, height: 1, sources: [] });
    const photo = draft.media.findIndex((m) => m.id === draft.profile.photo);
    draft.media[photo]!.alt = 'Me, smiling';
    draft.languages!.reverse();
    draft.languages![1]!.texts['profile.role'] = 'Entwicklerin';
    draft.languages![1]!.strings['nav.about'] = 'Über';
    draft.languages!.shift();
    draft.languages!.push({ tag: 'es', published: false, texts: {}, strings: {} });
    expect(draftChanges(live, draft, fixedTextName).map(({ path, name }) => [path, name])).toEqual([
      [`media[${photo}].alt`, 'Profile: Image description'],
      ['languages.de.texts.profile.role', 'Languages: German: Profile: role'],
      ['languages.de.strings.nav.about', 'Languages: German: fixed text “Navigation: link to About”'],
      ['languages.fr', 'Languages: French (removed)'],
      ['languages.es', 'Languages: Spanish (added)'],
    ]);
  });

  it('names a fixed text by its readable name, never its key', () => {
    const draft = copy();
    draft.strings = { 'hero.viewWork': 'See my work' };
    expect(draftChanges(defaultDocument, draft, fixedTextName).map((c) => c.name)).toEqual(['Languages: Fixed text “Hero: button to the projects”']);
  });
});
