import { describe, expect, it } from 'vitest';
import { defaultDocument } from '../../../content/document';
import { merge3 } from './merge';

function copy() {
  return structuredClone(defaultDocument);
}

describe('merging two edits of a draft', () => {
  it('keeps the changes of both sides when they touch different fields', () => {
    const mine = copy();
    mine.profile.name = 'Mine';
    mine.projects[1]!.title = 'My title';
    const theirs = copy();
    theirs.profile.role = 'Theirs';
    theirs.projects[0]!.description = 'Their description';
    const { document, clashes } = merge3(defaultDocument, mine, theirs);
    expect(clashes).toEqual([]);
    expect(document.profile).toMatchObject({ name: 'Mine', role: 'Theirs' });
    expect(document.projects[1]!.title).toBe('My title');
    expect(document.projects[0]!.description).toBe('Their description');
  });

  it('names a field changed on both sides and takes the side asked for', () => {
    const mine = copy();
    mine.profile.name = 'Mine';
    mine.about.paragraphs[0] = 'Only mine';
    const theirs = copy();
    theirs.profile.name = 'Theirs';
    const theirsWin = merge3(defaultDocument, mine, theirs);
    expect(theirsWin.clashes).toEqual(['profile.name']);
    expect(theirsWin.document.profile.name).toBe('Theirs');
    expect(theirsWin.document.about.paragraphs[0]).toBe('Only mine');
    expect(merge3(defaultDocument, mine, theirs, 'mine').document.profile.name).toBe('Mine');
  });

  it('takes a reordered list whole when only one side changed it, and clashes when both did', () => {
    const mine = copy();
    mine.projects.reverse();
    const theirs = copy();
    theirs.profile.name = 'Theirs';
    const clean = merge3(defaultDocument, mine, theirs);
    expect(clean.clashes).toEqual([]);
    expect(clean.document.projects.map((p) => p.id)).toEqual(mine.projects.map((p) => p.id));
    theirs.projects.pop();
    expect(merge3(defaultDocument, mine, theirs).clashes).toEqual(['projects']);
  });

  it('agrees when both sides made the same change', () => {
    const mine = copy();
    mine.profile.name = 'Same';
    const theirs = copy();
    theirs.profile.name = 'Same';
    expect(merge3(defaultDocument, mine, theirs)).toEqual({ document: mine, clashes: [] });
  });
});
