/**
 * A text written in Markdown (a case study's problem, decisions, outcome…), drawn from the tree
 * the server made of it (content/src/markdown.rs): elements only, never an HTML string, and
 * no Markdown parser in the browser. The server took only links to http(s) and mailto addresses
 * and images of the owner's uploads; this checks again (a link to anything else is drawn as its
 * text, an image from another site as its description). Styled by `.markdown` in index.css.
 */
import { Fragment, type ReactNode } from 'react';
import type { Block, Inline } from '../content/markdown.generated';

export type { Block, Inline } from '../content/markdown.generated';

/** `http://…`, `https://…` or `mailto:…`, with something after it, any case. */
const LINK = /^(?:https?:\/\/|mailto:)./i;

/** A path on this site: one `/` first, not `//` or `/\`, no backslash or control character. */
function sameSitePath(src: string): boolean {
  if (!src.startsWith('/') || src[1] === '/' || src[1] === '\\') return false;
  for (const character of src) {
    const code = character.charCodeAt(0);
    if (character === '\\' || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return true;
}

function inlines(children: Inline[]): ReactNode[] {
  return children.map((child, index) => inline(child, index));
}

function inline(node: Inline, key: number): ReactNode {
  if (typeof node === 'string') return node;
  switch (node.type) {
    case 'emphasis':
      return <em key={key}>{inlines(node.children)}</em>;
    case 'strong':
      return <strong key={key}>{inlines(node.children)}</strong>;
    case 'code':
      return <code key={key}>{node.text}</code>;
    case 'break':
      return <br key={key} />;
    case 'link': {
      if (!LINK.test(node.href)) return <Fragment key={key}>{inlines(node.children)}</Fragment>;
      const external = !node.href.toLowerCase().startsWith('mailto:');
      return (
        <a key={key} className="link" href={node.href} rel={external ? 'noopener noreferrer' : undefined}>
          {inlines(node.children)}
        </a>
      );
    }
    case 'image':
      if (!sameSitePath(node.src)) return node.alt;
      return (
        <img
          key={key}
          src={node.src}
          alt={node.alt}
          width={node.width}
          height={node.height}
          loading="lazy"
          decoding="async"
        />
      );
    default:
      return null;
  }
}

function block(node: Block, key: number, tight: boolean): ReactNode {
  switch (node.type) {
    case 'paragraph':
      // A tight list's item holds its text without a paragraph, as CommonMark draws it.
      return tight ? <Fragment key={key}>{inlines(node.children)}</Fragment> : <p key={key}>{inlines(node.children)}</p>;
    case 'list': {
      const items = node.items.map((item, index) => (
        <li key={index}>{item.map((child, at) => block(child, at, node.tight))}</li>
      ));
      return node.ordered ? (
        <ol key={key} start={node.start === undefined || node.start === 1 ? undefined : node.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'code':
      // Code reads left to right in every language, and scrolls sideways rather than widen the
      // page; focusable, so that a keyboard can scroll it.
      return (
        <pre key={key} dir="ltr" tabIndex={0}>
          <code className={node.lang ? `language-${node.lang}` : undefined}>{node.text}</code>
        </pre>
      );
    default:
      return null;
  }
}

/** The blocks of one text, in a `<div class="markdown">` (with `className` added). */
export function Markdown({ blocks, className }: { blocks: Block[]; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      {blocks.map((child, index) => block(child, index, false))}
    </div>
  );
}
