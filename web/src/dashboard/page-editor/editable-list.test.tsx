import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { defaultDocument, type ContentDocument } from '../../content/document';
import { LOGOS } from './media';
import { SkillsForm } from './skills-form';
import { SocialForm } from './social-form';

/** A list form over a copy of the default document, edited as the editor edits its draft. */
function Harness({
  form: Form,
  start = defaultDocument,
  onChange,
}: {
  form: typeof SocialForm;
  start?: ContentDocument;
  onChange: (d: ContentDocument) => void;
}) {
  const [document, setDocument] = useState<ContentDocument>(() => structuredClone(start));
  const edit = (change: (draft: ContentDocument) => void) =>
    setDocument((current) => {
      const next = structuredClone(current);
      change(next);
      onChange(next);
      return next;
    });
  return <Form document={document} problems={{ social: 'Too many links.' }} edit={edit} />;
}

afterEach(cleanup);

describe('a list form', () => {
  it('adds an item with a fresh id and opens it with its first field focused, opens and removes items', async () => {
    let latest = structuredClone(defaultDocument);
    render(<Harness form={SocialForm} onChange={(d) => (latest = d)} />);
    const before = defaultDocument.social.length;
    expect(before).toBeGreaterThan(1);
    expect(screen.getByText('Too many links.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a link' }));
    expect(latest.social).toHaveLength(before + 1);
    const added = latest.social[before]!;
    expect(added.url).toBe('https://');
    expect(defaultDocument.social.map((s) => s.id)).not.toContain(added.id);
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(document.activeElement?.id).toBe(screen.getAllByLabelText('Site name').at(-1)?.id);

    // Only the new item is open; a title opens its item, and each has a handle to drag it by.
    expect(screen.getAllByLabelText('Site name')).toHaveLength(1);
    const [first] = defaultDocument.social;
    const title = screen.getByRole('button', { name: new RegExp(`^Link 1: ${first!.label}`) });
    expect(title.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(title);
    expect(title.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByLabelText('Site name')).toHaveLength(2);
    expect(screen.getByRole('button', { name: `Reorder link ${first!.label}` }).getAttribute('aria-roledescription')).toBe('sortable');

    fireEvent.click(screen.getByRole('button', { name: `Remove the link ${first!.label}` }));
    expect(latest.social.map((s) => s.id)).not.toContain(first!.id);
    expect(latest.social).toHaveLength(before);
  });

  it('bundles the logo a new skill starts with', () => {
    // A document that does not carry the first bundled logo yet.
    const first = LOGOS[0]!.id;
    const start = structuredClone(defaultDocument);
    start.skills = start.skills.filter((skill) => skill.logo !== first);
    start.media = start.media.filter((m) => m.id !== first);
    let latest = start;
    render(<Harness form={SkillsForm} start={start} onChange={(d) => (latest = d)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add a skill' }));
    const added = latest.skills.at(-1)!;
    expect(added).toEqual({ name: '', logo: first });
    expect(latest.media.some((m) => m.id === added.logo)).toBe(true);
  });
});
