/**
 * What a post's page (`/writing/<slug>/`), the writing index (`/writing/`, `/writing/tags/<tag>/`,
 * `/writing/page/<n>/`) and the home page's Writing section are drawn from, beside the page's
 * document and locale. The server makes each at publish (content/src/post_page.rs) in the
 * page's language: the post's Markdown already rendered to HTML by the server's renderer (its
 * code blocks highlighted with classes, its images the owner's uploads with their sizes), its
 * dates and reading time written the language's way (the server's JavaScript engine has no Intl).
 */

/** A picture: an upload of the owner's, at the sizes the server has of it. */
export interface PostImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  alt: string;
}

/** A moment: `iso` for `<time datetime>` (RFC 3339, UTC), `text` as the page's language writes the day. */
export interface PostDate {
  iso: string;
  text: string;
}

/** A tag of a post: its name and its page of the index. */
export interface PostTag {
  name: string;
  path: string;
}

/** A post as a list shows it: the index, the home page's section, a post's neighbours. */
export interface PostSummaryView {
  id: string;
  title: string;
  summary: string;
  path: string;
  published: PostDate;
  /** "4 min read", in the page's language. */
  readingTime: string;
  tags: PostTag[];
}

/** A heading of the post's table of contents (levels 2 and 3), linking to its anchor. */
export interface TocEntry {
  id: string;
  text: string;
  level: 2 | 3;
}

export interface PostView {
  id: string;
  title: string;
  summary: string;
  /** Its own address: `/writing/<slug>/` or `/<language>/writing/<slug>/`. */
  path: string;
  /** The page of its language: `/` or `/<language>/`. */
  home: string;
  /** The writing index of its language: `/writing/` or `/<language>/writing/`. */
  writing: string;
  /**
   * The body as HTML, made by the server from the post's Markdown: trusted (raw HTML in the
   * Markdown is refused when the post is saved; every link and image is checked). Headings carry
   * ids and an anchor link (`<a class="anchor" href="#id">`), code blocks are
   * `<pre class="code"><code class="language-x">` with `<span class="hl-…">` tokens, tables are
   * wrapped in `<div class="table-scroll" tabindex="0">`, footnotes are a `<section class="footnotes">`.
   */
  html: string;
  /** Empty for a short post (fewer than three headings). */
  toc: TocEntry[];
  tags: PostTag[];
  cover: PostImage | null;
  published: PostDate;
  /** Only when it was changed after it was first published. */
  updated: PostDate | null;
  readingTime: string;
  /**
   * The newer and the older post in the same language, by publishing date: the page links them
   * with `rel="prev"` (newer) and `rel="next"` (older), as the index's pages run newest first.
   */
  newer: { title: string; path: string } | null;
  older: { title: string; path: string } | null;
}

/**
 * One page of the writing index. Its `<main>` carries `data-writing` (a post's `<article>`
 * `data-post`), by which the page's script picks the chunk that hydrates it (`hydrate-post.tsx`).
 */
export interface WritingView {
  /** This page's own address. */
  path: string;
  home: string;
  /** The index's first page in this language: `/writing/` or `/<language>/writing/`. */
  writing: string;
  /** The tag this page lists, or null for every post. */
  tag: string | null;
  posts: PostSummaryView[];
  /** 1-based. */
  page: number;
  pages: number;
  /** Addresses of the newer and older pages of the same list (`rel="prev"` and `rel="next"`). */
  newer: string | null;
  older: string | null;
  /** Every tag of the language's posts, with how many posts have it, most used first. */
  tags: (PostTag & { count: number })[];
  /** The language's feeds: `/feed.xml`, `/rss.xml`, `/feed.json` (under the language's prefix). */
  feeds: { atom: string; rss: string; json: string };
}

/**
 * What the home page's Writing section shows: the latest three posts, and the index's address. The
 * 4th argument of the render bundle's `renderLanding` and the `writing` of `/`'s page data; absent
 * (or without posts) the page has no Writing section and its header no Writing item.
 */
export interface WritingTeaser {
  posts: PostSummaryView[];
  writing: string;
}
