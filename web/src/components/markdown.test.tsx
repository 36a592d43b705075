import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { Markdown, type Block } from './markdown';

const html = (blocks: Block[], className?: string) => renderToStaticMarkup(<Markdown blocks={blocks} className={className} />);

describe('Markdown', () => {
  test('draws paragraphs with emphasis, strong emphasis, code and line breaks', () => {
    expect(
      html([
        {
          type: 'paragraph',
          children: [
            'One ',
            { type: 'emphasis', children: ['two'] },
            ' ',
            { type: 'strong', children: ['three ', { type: 'emphasis', children: ['four'] }] },
            { type: 'break' },
            { type: 'code', text: '<b>five</b>' },
          ],
        },
        { type: 'paragraph', children: ['Six & <seven>'] },
      ]),
    ).toBe(
      '<div class="markdown"><p>One <em>two</em> <strong>three <em>four</em></strong><br/><code>&lt;b&gt;five&lt;/b&gt;</code></p>' +
        '<p>Six &amp; &lt;seven&gt;</p></div>',
    );
  });

  test('draws web links with noopener noreferrer, e-mail links plain', () => {
    expect(
      html([
        {
          type: 'paragraph',
          children: [
            { type: 'link', href: 'https://example.com/a?b=1&c=2', children: ['site'] },
            ' ',
            { type: 'link', href: 'HTTP://example.com', children: [{ type: 'code', text: 'x' }] },
            ' ',
            { type: 'link', href: 'mailto:me@example.com', children: ['write'] },
          ],
        },
      ]),
    ).toBe(
      '<div class="markdown"><p>' +
        '<a class="link" href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer">site</a> ' +
        '<a class="link" href="HTTP://example.com" rel="noopener noreferrer"><code>x</code></a> ' +
        '<a class="link" href="mailto:me@example.com">write</a></p></div>',
    );
  });

  test('never draws a link to another scheme: its text stays, the link goes', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      '\tjavascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      '//evil.example',
      '/relative',
      'https://',
      'mailto:',
      '',
    ]) {
      const drawn = html([{ type: 'paragraph', children: ['Go ', { type: 'link', href, children: ['there'] }] }]);
      expect(drawn, href).toBe('<div class="markdown"><p>Go there</p></div>');
      expect(drawn).not.toMatch(/<a|href|javascript|data:/i);
    }
  });

  test("draws the owner's images lazily with their size, and any other as its description", () => {
    expect(
      html([
        {
          type: 'paragraph',
          children: [
            { type: 'image', src: '/media/a.webp', alt: 'The dashboard', width: 1200, height: 800 },
            { type: 'image', src: '/media/b.webp', alt: '' },
            { type: 'image', src: 'https://tracker.example/p.gif', alt: 'tracked' },
            { type: 'image', src: '//tracker.example/p.gif', alt: ' twice' },
            { type: 'image', src: '/\\tracker.example/p.gif', alt: ' thrice' },
          ],
        },
      ]),
    ).toBe(
      '<div class="markdown"><p>' +
        '<img src="/media/a.webp" alt="The dashboard" width="1200" height="800" loading="lazy" decoding="async"/>' +
        '<img src="/media/b.webp" alt="" loading="lazy" decoding="async"/>' +
        'tracked twice thrice</p></div>',
    );
  });

  test('draws lists: tight ones without paragraphs, ordered ones from their start, nested', () => {
    expect(
      html([
        {
          type: 'list',
          ordered: false,
          tight: true,
          items: [
            [{ type: 'paragraph', children: ['one'] }],
            [
              { type: 'paragraph', children: ['two'] },
              {
                type: 'list',
                ordered: true,
                start: 3,
                tight: false,
                items: [[{ type: 'paragraph', children: ['three'] }, { type: 'paragraph', children: ['more'] }]],
              },
            ],
          ],
        },
        { type: 'list', ordered: true, start: 1, tight: true, items: [[{ type: 'paragraph', children: ['first'] }]] },
      ]),
    ).toBe(
      '<div class="markdown"><ul><li>one</li><li>two<ol start="3"><li><p>three</p><p>more</p></li></ol></li></ul>' +
        '<ol><li>first</li></ol></div>',
    );
  });

  test('draws code blocks left to right, focusable to scroll, with their language', () => {
    expect(
      html(
        [
          { type: 'code', lang: 'rust', text: 'fn main() {\n    println!("<hi>");\n}\n' },
          { type: 'code', text: 'plain\n' },
        ],
        'mt-4',
      ),
    ).toBe(
      '<div class="markdown mt-4">' +
        '<pre dir="ltr" tabindex="0"><code class="language-rust">fn main() {\n    println!(&quot;&lt;hi&gt;&quot;);\n}\n</code></pre>' +
        '<pre dir="ltr" tabindex="0"><code>plain\n</code></pre></div>',
    );
  });

  test('leaves out a node it does not know', () => {
    const unknown = [
      { type: 'heading', children: ['x'] },
      { type: 'paragraph', children: [{ type: 'html', text: '<script>' }, 'kept'] },
    ] as unknown as Block[];
    expect(html(unknown)).toBe('<div class="markdown"><p>kept</p></div>');
  });
});
