// After `vite build` (client, SSR into dist/.ssr, and the render bundle into dist/.render):
// renders `/` for the default document with the render bundle (the one the server runs in
// QuickJS, here in node:vm) and writes the page's templates into dist/.render/ (index.html and
// app.html with the markers the server fills: head, React's resource hints, the rendered markup,
// the document as JSON data, the JSON-LD), the default render (default.html, which the server's
// render must equal byte for byte), the templates of the pages only the server renders (a case
// study's, a post's and the writing index's: case-study.html, post.html, writing.html) and the
// bundled images' URLs (media.json); dist/index.html and dist/app.html are
// those templates filled for the default document. Also writes dist/routes.json (the route
// patterns, from which the server tells a page from a 404) and the PNG icons. The link preview
// image and the web app manifest are the server's, made from the published document. Needs no browser. The SSR bundle is deleted afterwards so it is never
// embedded in the server; dist/.render is embedded apart from the site and never served.
import Beasties from 'beasties';
import vm from 'node:vm';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { devOnlyTextIn } from './dev-only-text.mjs';
import { headTags, jsonLdTag } from './head.mjs';
import { opaqueIcon, svgToPng } from './images.mjs';
import { rulesMatching, withoutPrintRules } from './rules-matching.mjs';
import { withoutUnusedProperties } from './unused-properties.mjs';

const dist = new URL('../dist/', import.meta.url).pathname;
const ssrDir = join(dist, '.ssr');
for (const file of readdirSync(ssrDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.m?js$/.test(f))) {
  const found = devOnlyTextIn(readFileSync(join(ssrDir, file), 'utf8'));
  if (found.length) throw new Error(`the pre-render bundle carries React Router's development build (${file}: ${found.join(', ')})`);
}
const ssr = await import(pathToFileURL(join(ssrDir, 'build-facts.js')).href);
const { profile, photo, paths } = ssr;
if (!Array.isArray(paths) || !paths.includes('/')) throw new Error(`the route list is wrong: ${JSON.stringify(paths)}`);
writeFileSync(join(dist, 'routes.json'), `${JSON.stringify(paths)}\n`);

/** The largest file of the photo's srcset (or its src), as a path under dist/. */
function largestPhoto() {
  if (!photo) return null;
  const candidates = (photo.srcSet ?? '')
    .split(',')
    .map((entry) => entry.trim().split(/\s+/))
    .filter(([url]) => url)
    .map(([url, w]) => ({ url, width: Number.parseInt(w ?? '0', 10) || 0 }))
    .sort((a, b) => b.width - a.width);
  return candidates[0]?.url ?? photo.src;
}

const photoPath = largestPhoto();

const favicon = readFileSync(join(dist, 'favicon.svg'), 'utf8');
for (const size of [32, 192, 512]) writeFileSync(join(dist, `icon-${size}.png`), await svgToPng(favicon, size));
writeFileSync(join(dist, 'icon-maskable-512.png'), await svgToPng(opaqueIcon(favicon, '#030712'), 512));
writeFileSync(join(dist, 'apple-touch-icon.png'), await svgToPng(opaqueIcon(favicon, '#030712'), 180));

/** `<link rel="modulepreload">` tags for a lazily loaded chunk and the chunks it imports, bar the entry. */
function preloads(source) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const chunk = manifest[source];
  if (!chunk) throw new Error(`the manifest has no chunk for ${source}`);
  const files = [chunk.file, ...(chunk.imports ?? []).filter((key) => !manifest[key]?.isEntry).map((key) => manifest[key].file)];
  return files.map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`).join('');
}

const renderDir = join(dist, '.render');
/** The render bundle, run as QuickJS runs it: a bare global scope with `console` and nothing else. */
function loadRenderer() {
  const context = vm.createContext({ console });
  vm.runInContext(readFileSync(join(renderDir, 'render.js'), 'utf8'), context, { filename: 'render.js' });
  if (typeof context.renderLanding !== 'function') throw new Error('render.js sets no renderLanding');
  return context;
}
const renderer = loadRenderer();
const renderLanding = renderer.renderLanding;
// Where each bundled image of the document is served: the server's head points at the photo.
writeFileSync(join(renderDir, 'media.json'), `${JSON.stringify(renderer.bundledMedia, null, 2)}\n`);
const documentFile = new URL('../src/content/default-document.json', import.meta.url);
const documentJson = JSON.stringify(JSON.parse(readFileSync(documentFile, 'utf8')));

/**
 * The markers of the page templates and what fills them: the server (server/src/content/render.rs)
 * fills them the same way, in the same order.
 */
const MARK = {
  languageStyle: '<!--language-style-->',
  head: '<!--seo-head-->',
  hints: '<!--render-hints-->',
  html: '<!--app-html-->',
  data: '<!--page-data-->',
  jsonLd: '<!--json-ld-->',
};
/**
 * The page's data (`{document, locale}`, see src/content/embedded.ts) as a JSON data block: never
 * executed, so the CSP needs nothing for it. Inline in the app's shell; `/` names the file that
 * holds it (`src`), which a browser does not fetch for a data block: the page's script does, once
 * the first screen is drawn.
 */
// The placeholder's case studies, which the server serves beside the default document: its
// cards link to them (by project id, in the order of the ids, as the server writes them).
const defaultStudies = JSON.parse(readFileSync(new URL('../src/content/default-case-studies.json', import.meta.url), 'utf8'));
const defaultProjects = new Set(JSON.parse(documentJson).projects.map((project) => project.id));
const caseStudyLinks = Object.fromEntries(
  defaultStudies
    .filter((study) => defaultProjects.has(study.project))
    .sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0))
    .map((study) => [study.project, `/projects/${study.slug}/`]),
);
if (Object.keys(caseStudyLinks).length < 1) throw new Error('the default document shows no case study');
const caseStudyLinksJson = JSON.stringify(caseStudyLinks);
const pageDataJson = `{"document":${documentJson},"locale":null,"caseStudies":${caseStudyLinksJson}}`;
const dataBlock = (json) => `\n    <script type="application/json" id="page-data">${json.replaceAll('<', '\\u003c')}</script>`;
const PAGE_DATA_FILE = 'page-data.json';
const dataLink = `\n    <script type="application/json" id="page-data" data-src="/${PAGE_DATA_FILE}"></script>`;
/** React emits resource hints (the hero photo's preload) ahead of the markup when it renders a
 * fragment rather than a whole document: they belong in the head, where they also act sooner. */
function splitHints(rendered) {
  const hints = /^(?:<link [^>]*\/>)+/.exec(rendered)?.[0] ?? '';
  return { hints: hints ? `\n    ${hints}` : '', body: rendered.slice(hints.length) };
}
function fill(template, parts) {
  let page = template;
  for (const [key, marker] of Object.entries(MARK)) {
    if (parts[key] === undefined) continue;
    if (!page.includes(marker)) throw new Error(`the template lacks ${marker}`);
    page = page.replace(marker, () => parts[key]);
  }
  return page;
}

const template = readFileSync(join(dist, 'index.html'), 'utf8');
const ROOT = '<div id="root"><!--app-html--></div>';
if (!template.includes(ROOT) || !template.includes('<!--seo-head-->')) {
  throw new Error('index.html lacks the <!--seo-head--> or <!--app-html--> marker');
}
const head = headTags(profile);
const page = template
  .replace(/\s*<title>[\s\S]*?<\/title>/, '')
  .replace(/\s*<meta name="description"[^>]*>/, '')
  .replace(/\s*<link rel="icon"[^>]*>/, '');

const rendered = renderLanding(documentJson, null, caseStudyLinksJson);
const { hints, body } = splitHints(rendered);

// The writing drawn for the purpose: the posts' dates, tags and addresses as the server gives them
// (content/post-view.ts), for the sheets the pages pick below. The placeholder has no post, so `/`
// as written has no Writing section; a published page with posts has one, and its rules are in
// `/`'s inline sheet all the same (picked from `/` drawn with this teaser).
const sampleDate = { iso: '2025-03-05T09:00:00Z', text: '5 March 2025' };
const sampleTags = [
  { name: 'rust', path: '/writing/tags/rust/' },
  { name: 'web', path: '/writing/tags/web/' },
];
const samplePosts = ['first', 'second'].map((slug, index) => ({
  id: slug,
  title: `The ${slug} post`,
  summary: 'What the post is about, in a sentence or two: the lists, the feeds and the link preview show it.',
  path: `/writing/${slug}/`,
  published: sampleDate,
  readingTime: `${index + 3} min read`,
  tags: sampleTags.slice(0, index + 1),
}));
const sampleTeaser = { posts: samplePosts, writing: '/writing/' };
const withWriting = splitHints(renderLanding(documentJson, null, caseStudyLinksJson, JSON.stringify(sampleTeaser))).body;
if (!withWriting.includes('<section id="writing"') || body.includes('<section id="writing"')) {
  throw new Error('the Writing section is not drawn with posts only');
}

// The rules of the landing page's stylesheet that its first screen uses (the header, the hero and
// the section after it) go inline, so the first paint waits for no second request. Beasties picks
// them from the HTML up to the third section. The server hashes every <style> of the page into its
// CSP at start-up (no 'unsafe-inline'). The whole stylesheet, with the rest of the page's rules and those of
// states that only scripts set, is fetched by the lazily loaded sections (Vite loads a chunk's CSS
// with it), after the first paint; a page without JavaScript links it in a <noscript>, and one
// opened at a section (an address with a fragment) has the head's script add it before the first
// paint (blocking="render"), so no section is ever drawn without its rules. The other pages link
// it. Why only the first screen: the first response must fit in the first round trip (a TCP
// connection's ten first segments, 14,600 bytes with its headers), and a right-to-left page with
// posts was over it with every rule of the page inline (docs/benchmarks.md).
const STYLESHEET = /\s*<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/;
const stylesheet = STYLESHEET.exec(page);
if (!stylesheet) throw new Error('index.html links no stylesheet to inline');
const wholeSheetHref = `/${stylesheet[1]}`;
const beastiesOptions = {
  path: dist,
  publicPath: '/',
  preload: 'body',
  noscriptFallback: false,
  pruneSource: false,
  // The fallback face's @font-face rule goes inline with the rules that use it (the web font
  // itself is declared by scripts, below and in src/web-font.ts).
  inlineFonts: true,
  preloadFonts: false,
  reduceInlineStyles: false,
  // The light scheme's rules match only once the inline script has set data-scheme on <html>,
  // before the first paint: they are inlined whatever the pre-rendered HTML holds.
  // So are those of the header's fit, which its script sets before the first paint, and of the
  // overlays' bar, which the entry draws, and of the cursor dot, which the layout draws for a fine
  // pointer once the page is hydrated, maybe before the whole stylesheet has come. (Those of states
  // below the fold, a card's hover or the contact form's fields, come with the stylesheet that the
  // lazily loaded sections fetch.) The language switch's and right to left's are the server's to
  // add (LANGUAGE_RULES).
  allowRules: [
    /^:root\[data-scheme=['"]?light['"]?\]$/,
    /data-scheme.*(\.btn-primary|\.card$|\.hero-glow|\.only-)/,
    /^(?!.*\.lang-).*data-fit/,
    /\.overlay-bar/,
    /\.cursor-dot/,
    // The sections after the first screen, drawn when they come near it (src/index.css).
    /^#main>section:nth-of-type\(n\+3\)$/,
  ],
  logLevel: 'warn',
};
// The header, the hero and the section after it, whose top a desktop's first screen shows: the
// landing's HTML up to its third section.
const thirdSection = [...withWriting.matchAll(/<section[^>]* id="/g)][2]?.index;
if (thirdSection === undefined) throw new Error('the landing page has fewer than three sections');
const firstScreen = withWriting.slice(0, thirdSection);
const beasties = new Beasties(beastiesOptions);
/** The rules Beasties inlined in `html`. */
function pickedRules(html) {
  return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1]?.trim();
}
const picked = await beasties.process(
  `<!doctype html><html><head><link rel="stylesheet" href="${wholeSheetHref}"></head><body><div id="root">${firstScreen}</div></body></html>`,
);
// Less paper's: the whole stylesheet, which always follows on `/` (with the sections' code, or in
// the <noscript>), brings them, and the first round trip has no bytes to spare. The pages only the
// server renders (a case study's, the writing's) keep theirs, as nothing else brings them there.
const rules = withoutPrintRules(pickedRules(picked) ?? '');
if (!rules) throw new Error(`Beasties found no rule of ${stylesheet[1]} that / uses`);
// The language switch and right to left are drawn only by a page with a language besides English
// (the default page has none): the server adds their rules, an inline sheet of their own, to
// those pages (server/src/content/render.rs), which saves the rest 250 bytes with Brotli. The
// properties they read stay in the first sheet.
const LANGUAGE_RULES = /\.lang-|\[dir=['"]?rtl/;
const wholeSheet = readFileSync(join(dist, stylesheet[1]), 'utf8');
const languageCss = rulesMatching(wholeSheet, LANGUAGE_RULES);
if (!languageCss.includes('.lang-button')) throw new Error(`${stylesheet[1]} has no rule of the language switch`);
if (LANGUAGE_RULES.test(rules)) throw new Error('Beasties inlined a rule of the language switch, which the server adds');
const { css } = withoutUnusedProperties(rules, `${withWriting}${languageCss}`);
for (const sheet of [css, languageCss]) {
  if (/<\/style/i.test(sheet)) throw new Error(`${stylesheet[1]} holds "</style", which would end the inline element`);
}
const inlineStyle = `\n    <style>${css}</style>`;
// The web font is fetched by the entry script once a first view's first screen is painted, for
// the next view (src/web-font.ts), so its request is not on the first paint's path; the next page
// of a visit, one whose referrer is a page of this site (which fetched the font), has it declared
// by this script in the head, before the first paint, which then draws in it from the cache at
// once. (`indexOf` is 0, so falsy, for a referrer of this origin.)
if (/\.woff2/.test(css)) throw new Error('the inline sheet names a web font, which src/web-font.ts declares');
const interFace = JSON.parse(readFileSync(new URL('../src/fonts/inter-face.json', import.meta.url), 'utf8'));
const fontFiles = readdirSync(join(dist, 'assets')).filter((name) => /^inter-latin-[\w-]+\.woff2$/.test(name));
if (fontFiles.length !== 1) throw new Error(`the build should hold one web font, not ${fontFiles.length}: ${fontFiles.join(' ')}`);
const faceArguments = [
  interFace.family,
  `url(/assets/${fontFiles[0]}) format('woff2')`,
  { weight: interFace.weight, display: interFace.display, unicodeRange: interFace.unicodeRange },
].map((value) => JSON.stringify(value));
const declareFont = `try{document.referrer.indexOf(location.origin+"/")||document.fonts.add(new FontFace(${faceArguments.join(',')}))}catch{}`;
const fontScript = `\n    <script>${declareFont}</script>`;
// The landing's: the same, and for an address with a fragment (`/#contact`), whose first screen is
// that section, the whole stylesheet added in the head while the head is parsed, holding the first
// paint until it has come (blocking="render").
const landingScript = `\n    <script>${declareFont}if(location.hash){let l=document.createElement("link");l.rel="stylesheet";l.href="${wholeSheetHref}";l.setAttribute("blocking","render");document.head.append(l)}</script>`;
const noscriptSheet = `\n    <noscript><link rel="stylesheet" href="${wholeSheetHref}"></noscript>`;
if (/<script(?![^>]*type="application\/ld\+json")/.test(body)) {
  throw new Error('the pre-rendered page holds an inline script, which the CSP forbids');
}
// With the stylesheet inline nothing blocks rendering, so a busy phone may paint the page while it
// is still parsing the hero, whose photo (first on a phone) comes after its text in the HTML, and
// then move the text down. The first paint waits until the hero is parsed: up to the next section.
const sectionIds = [...body.matchAll(/<section[^>]* id="([^"]+)"/g)].map((match) => match[1]);
if (sectionIds.length < 2) throw new Error(`the page has no section after the hero: ${sectionIds.join(' ')}`);
const heroParsed = `\n    <link rel="expect" href="#${sectionIds[1]}" blocking="render">`;
const jsonLd = jsonLdTag(profile, photoPath);
// The page is its owner's h-card (microformats2): `<html>` is its root, so that the canonical
// link in the head is its `u-url` and the body's classes its other properties (the name, photo
// and role in the hero and About, the address in Contact, the e-mail in the footer). The server's
// render keeps the class when it sets the scheme or the language; the app's shell has none.
const HTML_ROOT = '<html lang="en">';
if (!page.includes(HTML_ROOT)) throw new Error(`index.html lacks ${HTML_ROOT}`);
const indexTemplate = page
  .replace(HTML_ROOT, '<html lang="en" class="h-card">')
  .replace(STYLESHEET, '')
  .replace(/\s*<\/head>/, (end) => `${MARK.hints}${landingScript}${heroParsed}${inlineStyle}${MARK.languageStyle}${noscriptSheet}${end}`)
  .replace(/\s*<\/body>/, (end) => `${MARK.data}\n    ${MARK.jsonLd}${end}`);
const data = dataBlock(pageDataJson);
writeFileSync(join(renderDir, 'index.html'), indexTemplate);
writeFileSync(join(renderDir, 'default.html'), rendered);
writeFileSync(join(renderDir, 'languages.css'), languageCss);
writeFileSync(join(dist, 'index.html'), fill(indexTemplate, { languageStyle: '', head, hints, html: body, data: dataLink, jsonLd }));
writeFileSync(join(dist, PAGE_DATA_FILE), pageDataJson);

// The template of a case study's page (`/projects/<slug>/`), which only the server fills, at
// publish: the same head and markers as `/`'s, with an inline sheet of its own, picked by
// Beasties from a case study drawn for the purpose (the placeholder's first, its texts as plain
// paragraphs, with a previous and a next one) plus every rule of the Markdown texts, whichever of
// them a case study uses. No section of `/` follows its header, so nothing waits for one.
if (typeof renderer.renderCaseStudy !== 'function') throw new Error('render.js sets no renderCaseStudy');
// Its pictures where they are served, as the server gives them (content/case_study_page.rs).
const sampleStudy = {
  ...defaultStudies[0],
  media: defaultStudies[0].media.map((item) => ({
    ...item,
    sources: item.sources.map((source) => ({ ...source, src: renderer.bundledMedia[source.src] ?? source.src })),
  })),
};
if (!sampleStudy.media.every((item) => item.sources.every((source) => source.src.startsWith('/assets/')))) {
  throw new Error('a placeholder case study names a picture the build did not bundle');
}
const paragraphs = (text) => text.split(/\n{2,}/).filter(Boolean).map((part) => ({ type: 'paragraph', children: [part] }));
const sampleView = {
  study: sampleStudy,
  texts: {
    problem: [...paragraphs(sampleStudy.problem), { type: 'list', ordered: false, tight: true, items: [[{ type: 'paragraph', children: ['a'] }]] }, { type: 'code', text: 'x' }],
    role: paragraphs(sampleStudy.role),
    team: paragraphs(sampleStudy.team || 'x'),
    constraints: paragraphs(sampleStudy.constraints || 'x'),
    outcome: paragraphs(sampleStudy.outcome),
    decisions: sampleStudy.decisions.map((decision) => paragraphs(decision.why)),
  },
  figures: sampleStudy.figures.map((figure) => String(figure.value)),
  path: `/projects/${sampleStudy.slug}/`,
  home: '/',
  writing: '/writing/',
  previous: { title: 'Previous', path: '/projects/previous/' },
  next: { title: 'Next', path: '/projects/next/' },
};
const sampleBody = renderer.renderCaseStudy(JSON.stringify({ document: JSON.parse(documentJson), locale: null, caseStudy: sampleView }));
if (/<script(?![^>]*type="application\/ld\+json")/.test(sampleBody)) {
  throw new Error('the pre-rendered case study holds an inline script, which the CSP forbids');
}
const caseBeasties = new Beasties({ ...beastiesOptions, allowRules: [...beastiesOptions.allowRules, /\.markdown/, /\.case-study-step/] });
const casePicked = await caseBeasties.process(
  `<!doctype html><html><head><link rel="stylesheet" href="/${stylesheet[1]}"></head><body><div id="root">${sampleBody}</div></body></html>`,
);
const caseRules = pickedRules(casePicked);
if (!caseRules?.includes('.markdown')) throw new Error(`Beasties found no rule of ${stylesheet[1]} that a case study uses`);
// The language switch's and right to left's rules come with the server's second sheet, as on `/`.
const { css: caseCss } = withoutUnusedProperties(rulesMatching(caseRules, LANGUAGE_RULES, true), `${sampleBody}${languageCss}`);
if (/<\/style/i.test(caseCss)) throw new Error(`${stylesheet[1]} holds "</style", which would end the inline element`);
// Not its owner's h-card, as `/` is: the page is the case study's.
const caseTemplate = page
  .replace(STYLESHEET, '')
  .replace(/\s*<\/head>/, (end) => `${MARK.hints}${fontScript}\n    <style>${caseCss}</style>${MARK.languageStyle}${end}`)
  .replace(/\s*<\/body>/, (end) => `${MARK.data}\n    ${MARK.jsonLd}${end}`);
writeFileSync(join(renderDir, 'case-study.html'), caseTemplate);

/**
 * The template of a page the server pre-renders at publish, made as the case study's is: the head
 * and markers of `/`, with an inline sheet of its own, picked by Beasties from `sampleBody` (a page
 * drawn for the purpose) plus every rule `allow` names (whichever of them a real page uses).
 */
async function pageTemplate(name, sampleBody, allow, required) {
  if (/<script(?![^>]*type="application\/ld\+json")/.test(sampleBody)) {
    throw new Error(`the pre-rendered ${name} holds an inline script, which the CSP forbids`);
  }
  const picker = new Beasties({ ...beastiesOptions, allowRules: [...beastiesOptions.allowRules, ...allow] });
  const pickedHtml = await picker.process(
    `<!doctype html><html><head><link rel="stylesheet" href="/${stylesheet[1]}"></head><body><div id="root">${sampleBody}</div></body></html>`,
  );
  const pageRules = pickedRules(pickedHtml);
  for (const rule of required) {
    if (!pageRules?.includes(rule)) throw new Error(`Beasties found no rule ${rule} of ${stylesheet[1]} that ${name} uses`);
  }
  const { css: pageCss } = withoutUnusedProperties(rulesMatching(pageRules, LANGUAGE_RULES, true), `${sampleBody}${languageCss}`);
  if (/<\/style/i.test(pageCss)) throw new Error(`${stylesheet[1]} holds "</style", which would end the inline element`);
  return page
    .replace(STYLESHEET, '')
    .replace(/\s*<\/head>/, (end) => `${MARK.hints}${fontScript}\n    <style>${pageCss}</style>${MARK.languageStyle}${end}`)
    .replace(/\s*<\/body>/, (end) => `${MARK.data}\n    ${MARK.jsonLd}${end}`);
}

// The templates of a post's page (`/writing/<slug>/`) and of the writing index's pages
// (`/writing/`, a tag's, a later page), which only the server fills, at publish, each with the
// rules of a page drawn for the purpose: a post whose body holds every element the server's
// Markdown writes (content/src/article.rs), with a cover, a table of contents and both
// neighbours; a tag's second page of three, listing two posts. Every rule of a post's body
// (`.article`, the highlighter's `hl-` tokens) and of the tags' links goes in, whichever of them a
// post uses; a post's page hydrates from a chunk of its own (`[data-post]`, `[data-writing]`).
if (typeof renderer.renderPost !== 'function') throw new Error('render.js sets no renderPost');
if (typeof renderer.renderWriting !== 'function') throw new Error('render.js sets no renderWriting');
const coverSources = Object.entries(renderer.bundledMedia).filter(([source]) => /^images\/projects\/portfolio-\d+\.webp$/.test(source));
if (coverSources.length < 1) throw new Error('the build bundled no picture for the sample post\'s cover');
const anchor = (id) => `<a class="anchor" href="#${id}" aria-label="Link to this section">#</a>`;
const sampleArticle = [
  `<p>A first paragraph with <a href="https://example.com/">a link</a>, <strong>strong</strong> and <em>emphasised</em> words, <del>struck ones</del>, <code>inline code</code> and a note.<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup></p>`,
  `<h2 id="the-problem">The problem${anchor('the-problem')}</h2>`,
  '<ul>\n<li>One</li>\n<li>Two\n<ul>\n<li>Two and a half</li>\n</ul>\n</li>\n</ul>',
  '<ol>\n<li>First</li>\n<li>Second</li>\n</ol>',
  '<blockquote>\n<p>A quotation.</p>\n</blockquote>',
  `<h3 id="a-detail">A detail${anchor('a-detail')}</h3>`,
  '<pre class="code"><code class="language-rust"><span class="hl-source hl-rust">' +
    '<span class="hl-comment hl-line hl-double-slash hl-rust">// Greets.\n</span>' +
    '<span class="hl-meta hl-attribute hl-rust">#[inline]</span>\n' +
    '<span class="hl-storage hl-type hl-function hl-rust">fn</span> <span class="hl-entity hl-name hl-function hl-rust">greet</span>' +
    '<span class="hl-punctuation hl-section hl-parameters hl-begin hl-rust">(</span><span class="hl-variable hl-parameter hl-rust">n</span>: ' +
    '<span class="hl-storage hl-type hl-rust">u32</span><span class="hl-punctuation hl-section hl-parameters hl-end hl-rust">)</span> {\n' +
    '    <span class="hl-keyword hl-control hl-rust">if</span> n <span class="hl-keyword hl-operator hl-rust">&gt;</span> <span class="hl-constant hl-numeric hl-integer hl-rust">1</span> {\n' +
    '        <span class="hl-support hl-macro hl-rust">println!</span>(<span class="hl-string hl-quoted hl-double hl-rust">"hello"</span>);\n    }\n}\n' +
    '<span class="hl-markup hl-inserted hl-diff">+ added</span>\n<span class="hl-markup hl-deleted hl-diff">- removed</span>\n<span class="hl-markup hl-heading hl-markdown"># A heading</span>\n' +
    '</span></code></pre>',
  '<div class="table-scroll" tabindex="0"><table>\n<thead>\n<tr>\n<th>Name</th>\n<th>Value</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>One</td>\n<td>1</td>\n</tr>\n<tr>\n<td>Two</td>\n<td>2</td>\n</tr>\n<tr>\n<td>Three</td>\n<td>3</td>\n</tr>\n</tbody>\n</table>\n</div>',
  `<p><img src="${coverSources[0][1]}" width="800" height="500" alt="A picture" loading="lazy" decoding="async"></p>`,
  '<hr />',
  `<h4 id="a-smaller-point">A smaller point${anchor('a-smaller-point')}</h4>`,
  `<h2 id="the-end">The end${anchor('the-end')}</h2>`,
  '<p>The end.</p>',
  '<section class="footnotes" aria-label="Footnotes">\n<ol>\n<li id="fn-1"><p>A footnote. <a href="#fnref-1" class="footnote-back" aria-label="Back to the text">\u21a9\ufe0e</a></p></li>\n</ol>\n</section>',
].join('\n');
const samplePost = {
  id: 'sample',
  title: 'A post drawn for the template',
  summary: 'What the post is about, in a sentence or two.',
  path: '/writing/sample/',
  home: '/',
  writing: '/writing/',
  html: sampleArticle,
  toc: [
    { id: 'the-problem', text: 'The problem', level: 2 },
    { id: 'a-detail', text: 'A detail', level: 3 },
    { id: 'the-end', text: 'The end', level: 2 },
  ],
  tags: sampleTags,
  cover: {
    src: coverSources[0][1],
    srcSet: coverSources.map(([source, url]) => `${url} ${/-(\d+)\.webp$/.exec(source)[1]}w`).join(', '),
    width: 800,
    height: 500,
    alt: 'The cover',
  },
  published: sampleDate,
  updated: { iso: '2025-04-01T09:00:00Z', text: '1 April 2025' },
  readingTime: '4 min read',
  newer: { title: 'A newer post', path: '/writing/newer/' },
  older: { title: 'An older post', path: '/writing/older/' },
};
const samplePostBody = renderer.renderPost(JSON.stringify({ document: JSON.parse(documentJson), locale: null, post: samplePost }));
if (!samplePostBody.includes('data-post="sample"') || !samplePostBody.includes(sampleArticle)) {
  throw new Error('the sample post is not drawn with its body and its data-post');
}
const ARTICLE_RULES = [/\.article/, /hl-/, /\.tag-link/, /\.case-study-step/];
writeFileSync(join(renderDir, 'post.html'), await pageTemplate('post', samplePostBody, ARTICLE_RULES, ['.article', 'hl-keyword', '.tag-link']));
const sampleIndex = {
  path: '/writing/tags/rust/page/2/',
  home: '/',
  writing: '/writing/',
  tag: 'rust',
  posts: samplePosts,
  page: 2,
  pages: 3,
  newer: '/writing/tags/rust/',
  older: '/writing/tags/rust/page/3/',
  tags: sampleTags.map((tag, index) => ({ ...tag, count: 2 - index })),
  feeds: { atom: '/feed.xml', rss: '/rss.xml', json: '/feed.json' },
};
const sampleIndexBody = renderer.renderWriting(JSON.stringify({ document: JSON.parse(documentJson), locale: null, writingIndex: sampleIndex }));
if (!sampleIndexBody.includes('data-writing=""')) throw new Error('the sample writing index is drawn without its data-writing');
writeFileSync(join(renderDir, 'writing.html'), await pageTemplate('the writing index', sampleIndexBody, [/\.tag-link/], ['.tag-link']));

// The shell for /login, /dashboard and unknown routes: rendered by the client, kept out of search
// results. The router's chunk (which `/` never loads) is fetched alongside the entry, not after it.
// The shell's head: the page's, without the canonical link, with noindex.
const shellHead = head
  .replace(/\s*<link rel="canonical"[^>]*>/, '')
  .replace('<meta name="description"', '<meta name="robots" content="noindex" />\n    <meta name="description"');
// The error page of an unknown address is the shell with the scheme script, drawn in the
// visitor's scheme (their choice, else the owner's default, which the server writes into each
// language's copy with the accent). The app's own pages (the login, the dashboard) are dark only:
// they leave out the scheme script, so a visitor's light choice is the public page's.
const SCHEME_SCRIPT = /\s*<script>\(\(\)=>\{let d=document\.documentElement[^<]*<\/script>/;
if (!SCHEME_SCRIPT.test(page)) throw new Error('index.html lacks the scheme script');
// The fallback face's @font-face rule leaves the whole stylesheet for an inline sheet of the pages
// that link it (the shell, the error page): every other page has it in its own inline sheet
// already, and one declaration a page is enough.
const FONT_FACE = /@font-face\{[^}]*\}/g;
const fontFaces = wholeSheet.match(FONT_FACE) ?? [];
if (fontFaces.length !== 1) throw new Error(`${stylesheet[1]} should declare the fallback face alone, not ${fontFaces.length} faces`);
writeFileSync(join(dist, stylesheet[1]), wholeSheet.replace(FONT_FACE, ''));
// The app's own pages, whose first paint is the empty shell the client then draws into, declare the
// web font there too, with the same descriptors as the scripts (src/fonts/inter-face.json).
const interRule = `@font-face{font-family:${interFace.family};font-weight:${interFace.weight};font-display:${interFace.display};src:url(/assets/${fontFiles[0]})format("woff2");unicode-range:${interFace.unicodeRange.replace(/ /g, '')}}`;
const fontStyle = `\n    <style>${interRule}${fontFaces.join('')}</style>`;
const missingTemplate = page
  .replace(STYLESHEET, (link) => `${fontStyle}${link}`)
  .replace(/\s*<\/head>/, (end) => `${preloads('src/app.tsx')}${end}`)
  .replace(ROOT, '<div id="root"></div>')
  .replace(/\s*<\/body>/, (end) => `${MARK.data}${end}`);
const shellTemplate = missingTemplate.replace(SCHEME_SCRIPT, '');
writeFileSync(join(renderDir, 'missing.html'), missingTemplate);
writeFileSync(join(renderDir, 'app.html'), shellTemplate);
writeFileSync(join(dist, 'app.html'), fill(shellTemplate, { head: shellHead, data }));

rmSync(ssrDir, { recursive: true, force: true });
console.log(
  `pre-rendered / (${(body.length / 1024).toFixed(1)} KB of HTML), wrote the case study's, a post's and the writing index's templates, app.html, routes.json (${paths.join(' ')}), and the icons`,
);
