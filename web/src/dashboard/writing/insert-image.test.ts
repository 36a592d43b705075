import { describe, expect, it } from 'vitest';
import { insertImage } from './insert-image';

const SRC = '/media/0123456789abcdef-1280.webp';

/** The text with the selection marked: `[` and `]` around the description the insertion selects. */
function marked(text: string, start: number, end: number, alt = 'A chart') {
  const { text: out, alt: [from, to] } = insertImage(text, start, end, alt, SRC);
  return `${out.slice(0, from)}[${out.slice(from, to)}]${out.slice(to)}`;
}

describe('an image put into the Markdown at the cursor', () => {
  it('stands in a paragraph of its own in the middle of a line, its description selected', () => {
    const text = 'Before the image after.';
    const at = 'Before the image'.length;
    expect(marked(text, at, at)).toBe(`Before the image\n\n![[A chart]](${SRC})\n\n after.`);
  });

  it('adds no blank line where there is one already, and ends an empty text with a line break', () => {
    expect(marked('', 0, 0)).toBe(`![[A chart]](${SRC})\n`);
    expect(marked('One.\n\nTwo.', 6, 6)).toBe(`One.\n\n![[A chart]](${SRC})\n\nTwo.`);
    expect(marked('One.\n', 5, 5)).toBe(`One.\n\n![[A chart]](${SRC})\n`);
    expect(marked('One.\nTwo.', 5, 5)).toBe(`One.\n\n![[A chart]](${SRC})\n\nTwo.`);
  });

  it('replaces the selection, whichever way it was made', () => {
    expect(marked('Keep DROP keep.', 5, 9)).toBe(`Keep \n\n![[A chart]](${SRC})\n\n keep.`);
    expect(marked('Keep DROP keep.', 9, 5)).toBe(`Keep \n\n![[A chart]](${SRC})\n\n keep.`);
  });

  it('keeps a cursor past the end at the end', () => {
    expect(marked('Text', 99, 99)).toBe(`Text\n\n![[A chart]](${SRC})\n`);
  });

  it('escapes brackets and backslashes in the description, and keeps it on one line', () => {
    const { text, alt } = insertImage('', 0, 0, 'a [b]\\c\nd', SRC);
    expect(text).toBe(`![a \\[b\\]\\\\c d](${SRC})\n`);
    expect(text.slice(...alt)).toBe('a \\[b\\]\\\\c d');
  });

  it('wraps an address with spaces or parentheses in angle brackets', () => {
    expect(insertImage('', 0, 0, 'x', '/media/a (1).webp').text).toBe('![x](</media/a (1).webp>)\n');
  });
});
