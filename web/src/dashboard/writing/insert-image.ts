/** An image put into a post's Markdown at the cursor: `![alt](src)` in a paragraph of its own. */

/** `[`, `]` and `\` in an image's description, escaped so that its brackets stay its own. */
function escapeAlt(alt: string): string {
  return alt.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

export interface Inserted {
  text: string;
  /** Where the description is in the new text, [start, end): selected, so that typing replaces it. */
  alt: [number, number];
}

/**
 * `text` with the image in place of the selection `[start, end)`, separated from the text around
 * it by a blank line (unless one is there already), so that it is a paragraph of its own.
 */
export function insertImage(text: string, start: number, end: number, alt: string, src: string): Inserted {
  const from = Math.max(0, Math.min(start, end, text.length));
  const to = Math.min(text.length, Math.max(start, end));
  const before = text.slice(0, from);
  const after = text.slice(to);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after.startsWith('\n\n') ? '' : after.startsWith('\n') || after === '' ? '\n' : '\n\n';
  const description = escapeAlt(alt);
  const destination = /[\s()<>]/.test(src) ? `<${src}>` : src;
  const image = `![${description}](${destination})`;
  const altStart = before.length + lead.length + 2;
  return { text: `${before}${lead}${image}${trail}${after}`, alt: [altStart, altStart + description.length] };
}
