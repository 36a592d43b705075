/**
 * Generates the placeholder images and the sample resume once; the results are committed,
 * so this never runs at build time. Run it after editing the placeholders here or the
 * profile/timeline content:
 *
 *   cd web && node --import tsx scripts/generate-assets.ts
 *
 * or only some groups, by name: `... generate-assets.ts case-studies` (logos, icons, avatar,
 * projects, case-studies, awards, resume).
 *
 * Needs Debian's Chromium (/usr/bin/chromium, driven by playwright-core) and `cwebp`
 * (apt-get install webp). Technology logos come from the `simple-icons` package.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import * as icons from 'simple-icons';
import { education, profile, work } from '../src/content/owner.ts';

const web = resolve(import.meta.dirname, '..');
const images = join(web, 'src/content/images');
const tmp = mkdtempSync(join(tmpdir(), 'portfolio-assets-'));
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

/** Screenshots `html` at `width`x`height` (2x pixel ratio) and writes one WebP per target width. */
async function shoot(page: Page, html: string, width: number, height: number, out: string, widths: number[], quality = 72) {
  await page.setViewportSize({ width, height });
  await page.setContent(html, { waitUntil: 'load' });
  const png = join(tmp, 'shot.png');
  await page.screenshot({ path: png, type: 'png', omitBackground: true });
  for (const w of widths) {
    const target = `${out}-${w}.webp`;
    execFileSync('cwebp', ['-quiet', '-q', String(quality), '-m', '6', '-alpha_q', '80', '-resize', String(w), '0', png, '-o', target]);
    console.log('wrote', target.replace(web + '/', ''));
  }
}

const base = `<!doctype html><meta charset="utf-8"><style>*{box-sizing:border-box;margin:0;padding:0}body{font-family:'DejaVu Sans',sans-serif;-webkit-font-smoothing:antialiased}</style>`;

// ---------------------------------------------------------------- logos
// `onLight`: a logo whose colour vanishes on the light scheme's white cards gets a variant,
// `<file>-on-light.svg`, which the page shows in that scheme instead (see lightVariant in
// src/content/media.ts).
const LOGOS: { file: string; icon?: keyof typeof icons; color?: string; onLight?: string }[] = [
  { file: 'html5', icon: 'siHtml5' },
  { file: 'css3', icon: 'siCss', color: '#A77BDB' },
  { file: 'bootstrap', icon: 'siBootstrap', color: '#A07BE0' },
  { file: 'javascript', icon: 'siJavascript' },
  { file: 'react', icon: 'siReact' },
  { file: 'tailwindcss', icon: 'siTailwindcss' },
  { file: 'materialui', icon: 'siMui' },
  { file: 'vite', icon: 'siVite', color: '#B57BFF' },
  { file: 'firebase', icon: 'siFirebase', color: '#FF7A1A' },
  { file: 'git', icon: 'siGit' },
  { file: 'vercel', icon: 'siVercel', color: '#F3F4F6', onLight: '#030712' },
  { file: 'nodedotjs', icon: 'siNodedotjs', color: '#7CC05F' },
  { file: 'express', icon: 'siExpress', color: '#F3F4F6', onLight: '#1E2939' },
];

function writeLogos() {
  const dir = join(images, 'logos');
  mkdirSync(dir, { recursive: true });
  for (const { file, icon, color, onLight } of LOGOS) {
    const data = icons[icon!] as { path: string; hex: string };
    const svg = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="${fill}" d="${data.path}"/></svg>\n`;
    writeFileSync(join(dir, `${file}.svg`), svg(color ?? `#${data.hex}`));
    if (onLight) writeFileSync(join(dir, `${file}-on-light.svg`), svg(onLight));
  }
  // Adobe's marks are not in simple-icons: a plain monogram tile stands in for AEM.
  writeFileSync(
    join(dir, 'aem.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="4" fill="#EB1000"/>` +
      `<path fill="#fff" d="M7.1 17.5 10.9 6.5h2.2l3.8 11h-2.3l-.9-2.7H10.3l-.9 2.7zm3.8-4.6h2.2L12 9.4z"/></svg>\n`,
  );
  console.log(`wrote ${LOGOS.length + 1} logos`);
}

// ---------------------------------------------------------------- UI icons
/**
 * The UI icons as one SVG sprite (lucide's artwork, ISC licence), referenced with <use>: the
 * page's JavaScript then carries no path data at all. Add a name here, re-run, and use it
 * through <Icon name="..."> (web/src/components/icon.tsx).
 */
export const ICON_NAMES = [
  'arrow-right', 'award', 'briefcase', 'check', 'code', 'copy', 'download', 'external-link', 'github',
  'graduation-cap', 'languages', 'linkedin', 'mail', 'map-pin', 'menu', 'moon', 'phone', 'sun', 'twitter', 'user', 'x',
] as const;

async function writeIcons() {
  const symbols: string[] = [];
  for (const name of ICON_NAMES) {
    const mod = (await import(`lucide-react/dist/esm/icons/${name}.js`)) as { __iconNode: [string, Record<string, string>][] };
    const children = mod.__iconNode
      .map(([tag, attrs]) => `<${tag} ${Object.entries(attrs).filter(([k]) => k !== 'key').map(([k, v]) => `${k}="${v}"`).join(' ')}/>`)
      .join('');
    symbols.push(
      `<symbol id="${name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${children}</symbol>`,
    );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg">` +
    symbols.join('') +
    `</svg>\n`;
  writeFileSync(join(web, 'src/components/icons.svg'), svg);
  writeFileSync(
    join(web, 'src/components/icon-names.ts'),
    `// Generated by scripts/generate-assets.ts: the symbols in icons.svg.\nexport type IconName =\n${ICON_NAMES.map((n) => `  | '${n}'`).join('\n')};\n`,
  );
  console.log(`wrote ${ICON_NAMES.length} icons`);
}

// ---------------------------------------------------------------- avatar
const avatarHtml = `${base}<body style="background:transparent">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#2563eb"/></linearGradient>
    <linearGradient id="shirt" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e293b"/></linearGradient>
  </defs>
  <rect width="400" height="400" fill="url(#bg)"/>
  <circle cx="320" cy="80" r="70" fill="#3b82f6" opacity=".35"/>
  <circle cx="60" cy="340" r="90" fill="#1d4ed8" opacity=".45"/>
  <g font-family="DejaVu Sans Mono" font-size="22" fill="#93c5fd" opacity=".35"><text x="36" y="70">&lt;/&gt;</text><text x="300" y="330">{ }</text></g>
  <path d="M70 400c8-78 60-118 130-118s122 40 130 118z" fill="url(#shirt)"/>
  <path d="M170 282h60l-4 34c-8 10-44 10-52 0z" fill="#c68863"/>
  <path d="M168 286l32 40 32-40" fill="none" stroke="#60a5fa" stroke-width="6" stroke-linejoin="round"/>
  <rect x="176" y="232" width="48" height="62" rx="20" fill="#c68863"/>
  <ellipse cx="200" cy="186" rx="66" ry="76" fill="#d9996f"/>
  <ellipse cx="134" cy="192" rx="11" ry="16" fill="#c68863"/><ellipse cx="266" cy="192" rx="11" ry="16" fill="#c68863"/>
  <path d="M132 176c-6-62 30-96 72-96 46 0 78 30 68 92-6-26-18-40-34-46-26 14-62 18-92 10-8 10-12 24-14 40z" fill="#1f1a17"/>
  <g fill="#1f1a17"><ellipse cx="176" cy="192" rx="7" ry="8"/><ellipse cx="224" cy="192" rx="7" ry="8"/></g>
  <g fill="none" stroke="#0f172a" stroke-width="4"><rect x="154" y="174" width="42" height="34" rx="12"/><rect x="204" y="174" width="42" height="34" rx="12"/><path d="M196 188h8"/></g>
  <path d="M200 200l-6 22h10" fill="none" stroke="#b57a55" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M180 236c12 10 28 10 40 0" fill="none" stroke="#7c3f2a" stroke-width="4" stroke-linecap="round"/>
</svg></body>`;

// ---------------------------------------------------------------- project pages
const browserChrome = (url: string, body: string, bg: string) => `${base}
<style>.win{width:1200px;height:750px;display:flex;flex-direction:column;background:${bg};overflow:hidden}
.bar{height:40px;background:#1f2937;display:flex;align-items:center;gap:8px;padding:0 16px}
.dot{width:12px;height:12px;border-radius:50%}.url{margin-left:24px;flex:1;height:24px;border-radius:6px;background:#111827;color:#9ca3af;font-size:13px;display:flex;align-items:center;padding:0 12px}
.page{flex:1;position:relative;overflow:hidden}</style>
<div class="win"><div class="bar"><span class="dot" style="background:#ef4444"></span><span class="dot" style="background:#f59e0b"></span><span class="dot" style="background:#22c55e"></span><span class="url">${url}</span></div><div class="page">${body}</div></div>`;

const projectPages: Record<string, string> = {
  portfolio: browserChrome(
    'portfolio.example.dev',
    `<style>.p{color:#d1d5db;background:#030712;height:100%;padding:0 72px}
    nav{display:flex;justify-content:space-between;align-items:center;height:72px;border-bottom:1px solid #1f2937}
    nav b{color:#fff;font-size:22px}nav span{margin-left:28px;font-size:15px;color:#9ca3af}nav span.a{color:#60a5fa}
    .hero{display:flex;align-items:center;gap:64px;padding-top:70px}.badge{display:inline-block;border:1px solid #1e40af;color:#93c5fd;border-radius:999px;padding:6px 14px;font-size:14px}
    h1{font-size:54px;color:#fff;margin:22px 0 10px;line-height:1.1}h1 em{font-style:normal;color:#3b82f6}h2{font-size:28px;color:#9ca3af;font-weight:400}
    p{font-size:18px;line-height:1.6;margin:22px 0;max-width:560px}.btns span{display:inline-block;padding:14px 24px;border-radius:10px;margin-right:12px;font-weight:bold}
    .blob{width:320px;height:320px;border-radius:42% 58% 62% 38%/45% 40% 60% 55%;background:linear-gradient(135deg,#1e3a8a,#3b82f6);flex:none;box-shadow:0 0 80px #1d4ed855}</style>
    <div class="p"><nav><b>Portfolio</b><div><span class="a">Home</span><span>About</span><span>Skills</span><span>Projects</span><span>Contact</span></div></nav>
    <div class="hero"><div><span class="badge">Available for new projects</span><h1>Hi, I'm <em>Alex</em></h1><h2>Full Stack Developer|</h2>
    <p>I build fast, accessible web apps with the MERN stack, Tailwind CSS and a lot of care for details.</p>
    <div class="btns"><span style="background:#2563eb;color:#fff">View My Work</span><span style="border:1px solid #374151;color:#e5e7eb">Contact</span></div></div><div class="blob"></div></div></div>`,
    '#030712',
  ),
  'food-recipes': browserChrome(
    'api.food-recipes.example.dev/docs',
    `<style>.d{display:flex;height:100%;background:#0b1120;color:#cbd5e1;font-size:15px}
    aside{width:260px;background:#0f172a;border-right:1px solid #1e293b;padding:24px}aside h3{color:#fff;font-size:20px;margin-bottom:20px}aside h3 i{color:#f97316;font-style:normal}
    aside div{padding:8px 10px;border-radius:6px;margin-bottom:4px;color:#94a3b8}aside div.a{background:#1e293b;color:#fff}
    main{flex:1;padding:32px 40px}h1{color:#fff;font-size:30px;margin-bottom:8px}.sub{color:#94a3b8;margin-bottom:26px}
    .ep{display:flex;align-items:center;gap:14px;border:1px solid #1e293b;border-radius:10px;padding:12px 16px;margin-bottom:10px;font-family:'DejaVu Sans Mono',monospace;font-size:14px}
    .m{width:66px;text-align:center;border-radius:6px;padding:3px 0;font-weight:bold;color:#0b1120;font-size:13px}
    pre{margin-top:18px;background:#020617;border:1px solid #1e293b;border-radius:10px;padding:18px;font-family:'DejaVu Sans Mono',monospace;font-size:13.5px;line-height:1.55;color:#e2e8f0}
    .k{color:#7dd3fc}.s{color:#86efac}.n{color:#fbbf24}</style>
    <div class="d"><aside><h3>Food<i>Recipes</i> API</h3><div class="a">Recipes</div><div>Ingredients</div><div>Categories</div><div>Authentication</div><div>Rate limits</div></aside>
    <main><h1>Recipes</h1><div class="sub">REST endpoints served by Node.js and Express, stored in MongoDB.</div>
    <div class="ep"><span class="m" style="background:#4ade80">GET</span>/api/recipes?category=dessert&amp;page=1</div>
    <div class="ep"><span class="m" style="background:#4ade80">GET</span>/api/recipes/:id</div>
    <div class="ep"><span class="m" style="background:#60a5fa">POST</span>/api/recipes</div>
    <div class="ep"><span class="m" style="background:#fbbf24">PUT</span>/api/recipes/:id</div>
    <pre>{
  <span class="k">"id"</span>: <span class="s">"66b1c0ffee"</span>,
  <span class="k">"title"</span>: <span class="s">"Mango sticky rice"</span>,
  <span class="k">"category"</span>: <span class="s">"dessert"</span>,
  <span class="k">"minutes"</span>: <span class="n">35</span>,
  <span class="k">"ingredients"</span>: [<span class="s">"glutinous rice"</span>, <span class="s">"coconut milk"</span>, <span class="s">"mango"</span>]
}</pre></main></div>`,
    '#0b1120',
  ),
  'elegant-context': browserChrome(
    'elegant-context.example.dev',
    `<style>.e{height:100%;background:#f5efe6;color:#2b2620;font-family:'DejaVu Serif',serif;padding:0 80px}
    nav{display:flex;justify-content:space-between;align-items:center;height:84px;font-family:'DejaVu Sans',sans-serif;font-size:14px;letter-spacing:.14em;text-transform:uppercase}
    nav b{font-family:'DejaVu Serif',serif;letter-spacing:.08em;font-size:20px}nav span{margin-left:30px;color:#6b5f52}
    .row{display:flex;gap:56px;align-items:center;padding-top:40px}h1{font-size:62px;line-height:1.05;font-weight:400;margin-bottom:24px}h1 i{color:#a1673f}
    p{font-family:'DejaVu Sans',sans-serif;font-size:17px;line-height:1.7;color:#5c5247;max-width:440px;margin-bottom:30px}
    .cta{display:inline-block;background:#2b2620;color:#f5efe6;padding:16px 30px;font-family:'DejaVu Sans',sans-serif;letter-spacing:.12em;font-size:13px}
    .art{position:relative;width:480px;height:470px;flex:none}.a1{position:absolute;inset:0 120px 60px 0;background:linear-gradient(160deg,#d6c2a8,#a1673f)}
    .a2{position:absolute;right:0;bottom:0;width:240px;height:300px;background:linear-gradient(200deg,#6b7c6b,#3d4a3d);border:10px solid #f5efe6}
    .a3{position:absolute;left:40px;bottom:100px;width:120px;height:120px;border-radius:50%;background:#f5efe6;opacity:.85}</style>
    <div class="e"><nav><b>ELEGANT CONTEXT</b><div><span>Studio</span><span>Collections</span><span>Journal</span><span>Contact</span></div></nav>
    <div class="row"><div><h1>Spaces that feel <i>quietly</i> considered.</h1><p>An interior design studio shaping calm homes with natural materials, honest craft and a lot of daylight.</p><span class="cta">EXPLORE THE WORK</span></div>
    <div class="art"><div class="a1"></div><div class="a2"></div><div class="a3"></div></div></div></div>`,
    '#f5efe6',
  ),
  'tuk-tuk-cambodia': browserChrome(
    'tuk-tuk-cambodia.example.dev',
    `<style>.t{height:100%;background:linear-gradient(180deg,#fff7ed 0,#ffedd5 100%);color:#1c1917}
    nav{display:flex;justify-content:space-between;align-items:center;height:72px;padding:0 64px;background:#fff;box-shadow:0 1px 0 #fed7aa}
    nav b{font-size:22px;color:#c2410c}nav span{margin-left:26px;font-size:15px;color:#57534e}nav .btn{background:#ea580c;color:#fff;padding:10px 18px;border-radius:999px}
    .hero{display:flex;gap:48px;padding:56px 64px 0}h1{font-size:52px;line-height:1.1;margin-bottom:18px}h1 span{color:#ea580c}
    p{font-size:18px;color:#57534e;line-height:1.6;max-width:470px;margin-bottom:28px}
    .book{flex:none;width:400px;background:#fff;border-radius:18px;padding:26px;box-shadow:0 20px 50px #9a341222}
    .book h3{font-size:20px;margin-bottom:16px}.f{border:1px solid #e7e5e4;border-radius:10px;padding:12px 14px;margin-bottom:12px;font-size:15px;color:#78716c}
    .f b{display:block;font-size:12px;color:#a8a29e;text-transform:uppercase;letter-spacing:.08em;font-weight:600}.go{background:#ea580c;color:#fff;text-align:center;padding:14px;border-radius:10px;font-weight:bold}
    .sun{position:absolute;left:560px;top:400px;width:180px;height:180px;border-radius:50%;background:#fdba74;opacity:.6}
    .road{position:absolute;left:0;right:0;bottom:0;height:90px;background:#44403c}.road i{position:absolute;top:42px;width:60px;height:6px;background:#fbbf24}
    .stats{display:flex;gap:36px}.stats div{font-size:14px;color:#78716c}.stats b{display:block;font-size:28px;color:#1c1917}</style>
    <div class="t"><nav><b>Tuk-Tuk Cambodia</b><div><span>Tours</span><span>Airport</span><span>Prices</span><span class="btn">Book a ride</span></div></nav>
    <div class="sun"></div><div class="hero"><div><h1>Explore Phnom Penh <span>by tuk-tuk</span></h1><p>Friendly local drivers, fixed fares and city tours from the Royal Palace to the riverside night market.</p>
    <div class="stats"><div><b>4.9</b>rider rating</div><div><b>120+</b>drivers</div><div><b>24/7</b>airport pickup</div></div></div>
    <div class="book"><h3>Book your ride</h3><div class="f"><b>Pick-up</b>Phnom Penh Airport</div><div class="f"><b>Drop-off</b>Riverside, Sisowath Quay</div><div class="f"><b>When</b>Today, 18:30</div><div class="go">Check fare · $9</div></div></div>
    <div class="road"><i style="left:80px"></i><i style="left:260px"></i><i style="left:440px"></i><i style="left:620px"></i><i style="left:800px"></i><i style="left:980px"></i></div></div>`,
    '#fff7ed',
  ),
};

// ---------------------------------------------------------------- case studies
// The gallery images of the placeholder's two case studies (src/content/default-case-studies.json),
// drawn at 640x400 CSS px, no text under 12 px, and shot at 2x: 1280 px wide for a gallery column
// of about 640 px (a reading width) on a 2x screen, 640 px for 1x; a 1600 px file of these would
// be half as large again (30 to 45 KB) for detail no column shows.
const panel = (body: string, css = '') => `${base}
<style>.cs{width:640px;height:400px;background:#030712;color:#d1d5db;padding:26px 32px;position:relative;overflow:hidden}
.cs h1{color:#fff;font-size:20px;font-weight:bold}.cs .sub{color:#9ca3af;font-size:13px;margin-top:4px}${css}</style>
<div class="cs">${body}</div>`;

/** A Lighthouse-like gauge: a ring filled to `score`, coloured as Lighthouse colours it. */
const gauge = (score: number, label: string) => {
  const color = score >= 90 ? '#22c55e' : score >= 50 ? '#f59e0b' : '#ef4444';
  const r = 22;
  const c = 2 * Math.PI * r;
  return `<div class="g"><svg width="56" height="56" viewBox="0 0 56 56"><circle cx="28" cy="28" r="${r}" fill="${color}22" stroke="#1f2937" stroke-width="5"/>
  <circle cx="28" cy="28" r="${r}" fill="none" stroke="${color}" stroke-width="5" stroke-linecap="round" stroke-dasharray="${(c * score) / 100} ${c}" transform="rotate(-90 28 28)"/>
  <text x="28" y="34" text-anchor="middle" font-size="${score === 100 ? 15 : 17}" font-weight="bold" fill="${color}" font-family="DejaVu Sans">${score}</text></svg><span>${label}</span></div>`;
};
const report = (title: string, what: string, scores: number[], metrics: string) =>
  `<div class="rep"><div class="rh"><b>${title}</b><span>${what}</span></div><div class="gs">${scores
    .map((s, i) => gauge(s, ['Performance', 'Accessibility', 'Best Practices', 'SEO'][i]!))
    .join('')}</div><div class="ms">${metrics}</div></div>`;

const caseStudyImages: Record<string, string> = {
  'portfolio-lighthouse': panel(
    `<h1>Lighthouse, mobile: before and after the rewrite</h1>
    ${report('Before', 'React app on Node.js', [64, 88, 92, 91], 'FCP <b>3.1 s</b> · LCP <b>4.6 s</b> · TBT <b>380 ms</b> · JavaScript <b>302 KB</b>')}
    ${report('After', 'Rendered by one Rust binary', [100, 100, 100, 100], 'FCP <b>0.9 s</b> · LCP <b>1.0 s</b> · TBT <b>0 ms</b> · HTML <b>12.2 KB</b>')}`,
    `.rep{background:#111827;border:1px solid #1f2937;border-radius:12px;padding:11px 16px;margin-top:14px}
    .rh{display:flex;justify-content:space-between;align-items:baseline}.rh b{color:#fff;font-size:15px}.rh span{color:#9ca3af;font-size:12px}
    .gs{display:grid;grid-template-columns:repeat(4,1fr);text-align:center;margin-top:6px}.g span{display:block;font-size:12px;color:#9ca3af}
    .ms{margin-top:8px;border-top:1px solid #1f2937;padding-top:8px;font-size:12px;color:#9ca3af;text-align:center}.ms b{color:#e5e7eb}`,
  ),
  'portfolio-architecture': panel(
    `<h1>One process serves everything</h1><div class="sub">The page is rendered when I publish, then served from memory</div>
    <div class="row"><div class="box side"><div class="ic"></div><b>Browser</b><small>HTML first, React hydrates after</small></div>
    <div class="ln"><span>HTTPS</span></div>
    <div class="box big"><b>portfolio</b><small>one Rust binary, one file to deploy</small>
      <div class="in"><div>Page<small>pre-rendered, in memory</small></div><div>Renderer<small>React, at publish</small></div><div>Content API<small>drafts, versions</small></div><div>Inbox<small>contact form, spam check</small></div></div></div>
    <div class="ln"><span>file</span></div>
    <div class="box side"><div class="cyl"></div><b>SQLite</b><small>content, messages, uploads</small></div></div>
    <div class="foot"><span class="k"></span>No CDN, no analytics, no third-party requests</div>`,
    `.row{display:flex;align-items:center;margin-top:34px}.box{background:#111827;border:1px solid #1f2937;border-radius:12px;padding:12px;text-align:center}
    .box b{display:block;color:#fff;font-size:15px}.box small{display:block;color:#9ca3af;font-size:12px;line-height:1.4;margin-top:3px}
    .side{width:100px;flex:none;padding:12px 8px}.ic{width:30px;height:24px;margin:0 auto 8px;border:3px solid #60a5fa;border-top-width:7px;border-radius:4px}
    .big{flex:1;border-color:#1e40af;box-shadow:0 0 36px #1d4ed833;text-align:left;padding:14px}.big>b{font-family:'DejaVu Sans Mono',monospace;color:#93c5fd;font-size:16px}
    .in{display:grid;grid-template-columns:1fr 1fr;gap:7px;margin-top:12px}.in div{background:#030712;border:1px solid #1f2937;border-radius:8px;padding:8px 9px;color:#e5e7eb;font-size:13px}.in small{margin-top:2px}
    .ln{width:46px;flex:none;height:2px;background:#3b82f6;position:relative}.ln span{position:absolute;top:-19px;left:0;right:0;text-align:center;color:#9ca3af;font-size:12px}
    .cyl{width:38px;height:38px;margin:0 auto 8px;border-radius:50%/24%;background:linear-gradient(#1e3a8a,#2563eb);box-shadow:inset 0 6px 0 #3b82f6}
    .foot{position:absolute;left:32px;bottom:24px;color:#9ca3af;font-size:13px;display:flex;align-items:center;gap:8px}.k{width:9px;height:9px;border-radius:50%;background:#22c55e}`,
  ),
  'food-recipes-docs': panel(
    `<div class="top"><span class="m">GET</span><code>/api/recipes/search</code></div>
    <p class="d">Full-text search over titles and ingredients, ranked, in pages of up to 50.</p>
    <div class="cols"><div><div class="h">Query parameters</div><table>
    <tr><td><code>q</code></td><td>required</td></tr><tr><td><code>category</code></td><td>dessert, main …</td></tr>
    <tr><td><code>page</code></td><td>from 1</td></tr><tr><td><code>limit</code></td><td>1 to 50, default 20</td></tr></table>
    <div class="h" style="margin-top:14px">Errors</div><table><tr><td><code>400</code></td><td>invalid-parameter</td></tr><tr><td><code>429</code></td><td>rate-limited</td></tr></table></div>
    <pre><span class="c">200 OK · 84 ms</span>
{
  <span class="k">"total"</span>: <span class="n">37</span>,
  <span class="k">"page"</span>: <span class="n">1</span>,
  <span class="k">"recipes"</span>: [{
    <span class="k">"id"</span>: <span class="s">"66b1c0ffee"</span>,
    <span class="k">"title"</span>: <span class="s">"Mango sticky rice"</span>,
    <span class="k">"minutes"</span>: <span class="n">35</span>
  }, …]
}</pre></div>`,
    `.cs{background:#0b1120}.top{display:flex;align-items:center;gap:10px;font-family:'DejaVu Sans Mono',monospace;font-size:18px;color:#fff}
    .m{background:#4ade80;color:#0b1120;border-radius:6px;padding:3px 9px;font-size:14px;font-weight:bold}.d{margin:10px 0 18px;color:#94a3b8;font-size:13px}
    .cols{display:flex;gap:18px}.cols>div{flex:1}.h{color:#fff;font-size:12px;font-weight:bold;text-transform:uppercase;letter-spacing:.08em;margin-bottom:6px}
    table{width:100%;border-collapse:collapse;font-size:12.5px}td{border-bottom:1px solid #1e293b;padding:6px 3px;color:#94a3b8}td code{color:#7dd3fc;font-family:'DejaVu Sans Mono',monospace}
    pre{flex:none;width:290px;background:#020617;border:1px solid #1e293b;border-radius:10px;padding:14px;font-family:'DejaVu Sans Mono',monospace;font-size:12px;line-height:1.55;color:#e2e8f0}
    .k{color:#7dd3fc}.s{color:#86efac}.n{color:#fbbf24}.c{color:#4ade80}`,
  ),
  'food-recipes-latency': panel(
    `<h1>Search, 99th percentile response time</h1><div class="sub">Per week, in milliseconds; the text index shipped in week 7</div>
    <div class="chart">${[1180, 1240, 1150, 1210, 1260, 1190, 96, 91, 88, 93, 90, 89]
      .map((ms, i) => `<div class="col"><b style="color:${ms > 500 ? '#fca5a5' : '#86efac'}">${ms.toLocaleString('en')}</b><i style="height:${(ms / 1300) * 220}px;background:${ms > 500 ? '#ef4444' : '#22c55e'}"></i><span>${i + 1}</span></div>`)
      .join('')}<div class="mark"><span>text index</span></div></div>`,
    `.chart{position:absolute;left:32px;right:32px;bottom:30px;height:270px;display:flex;align-items:flex-end;gap:8px;border-bottom:1px solid #374151}
    .col{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:flex-end;height:100%;position:relative}.col i{display:block;width:100%;border-radius:4px 4px 0 0}
    .col b{font-size:12px;margin-bottom:3px}.col span{position:absolute;bottom:-19px;font-size:12px;color:#9ca3af}
    .mark{position:absolute;left:50%;top:0;bottom:0;border-left:2px dashed #60a5fa}.mark span{position:absolute;left:7px;top:-2px;color:#93c5fd;font-size:12px;white-space:nowrap}`,
  ),
};

// ---------------------------------------------------------------- award certificates
const certificate = (award: string, accent: string, citation: string) => `${base}
<style>.c{width:1000px;height:700px;background:#fffdf7;padding:26px;font-family:'DejaVu Serif',serif;color:#1f2937}
.in{height:100%;border:3px double ${accent};outline:1px solid ${accent}66;outline-offset:-14px;position:relative;text-align:center;padding:64px 90px;
background:radial-gradient(circle at 0 0,${accent}14 0,transparent 35%),radial-gradient(circle at 100% 100%,${accent}14 0,transparent 35%)}
.org{font-family:'DejaVu Sans',sans-serif;letter-spacing:.3em;font-size:14px;color:#6b7280;text-transform:uppercase}
h1{font-size:50px;font-weight:400;letter-spacing:.06em;margin:22px 0 6px;color:${accent}}h2{font-size:22px;font-weight:400;letter-spacing:.25em;text-transform:uppercase;color:#4b5563}
.to{margin-top:34px;font-size:17px;color:#6b7280;font-style:italic}.name{font-size:40px;margin:10px auto 0;border-bottom:1px solid #d1d5db;display:inline-block;padding:0 40px 8px}
.why{font-size:17px;line-height:1.6;color:#4b5563;max-width:640px;margin:22px auto 0}
.sig{position:absolute;bottom:58px;width:220px;border-top:1px solid #9ca3af;padding-top:8px;font-family:'DejaVu Sans',sans-serif;font-size:13px;color:#6b7280}
.seal{position:absolute;bottom:40px;left:50%;margin-left:-62px;width:124px;height:124px;border-radius:50%;background:radial-gradient(circle,${accent} 0 52%,${accent}cc 53% 60%,${accent} 61%);
color:#fffdf7;display:flex;align-items:center;justify-content:center;font-family:'DejaVu Sans',sans-serif;font-weight:bold;font-size:14px;letter-spacing:.12em;box-shadow:0 0 0 6px ${accent}33}</style>
<div class="c"><div class="in"><div class="org">Certificate of recognition</div><h1>${award}</h1><h2>presented to</h2>
<div class="name">${profile.name}</div><p class="why">${citation}</p>
<div class="sig" style="left:90px">Delivery Lead</div><div class="seal">2024</div><div class="sig" style="right:90px">Head of Engineering</div></div></div>`;

// ---------------------------------------------------------------- resume
function resumeHtml() {
  const entries = (list: typeof work) =>
    list
      .map(
        (e) =>
          `<div class="e"><div class="h"><b>${e.title}</b><span>${e.date}</span></div><div class="pl">${e.place}</div><p>${e.description}</p>` +
          (e.awards?.length ? `<p class="aw">Awards: ${e.awards.join(', ')}</p>` : '') +
          `</div>`,
      )
      .join('');
  return `${base}<style>@page{size:A4;margin:16mm 16mm}body{font-size:10.5pt;color:#1f2937;line-height:1.5}
  h1{font-size:26pt;color:#111827}.role{color:#1d4ed8;font-size:13pt;margin-bottom:6px}.c{color:#4b5563;font-size:9.5pt;margin-bottom:14px}
  h2{font-size:11pt;text-transform:uppercase;letter-spacing:.12em;color:#1d4ed8;border-bottom:1px solid #d1d5db;padding-bottom:3px;margin:16px 0 8px}
  .e{margin-bottom:10px}.h{display:flex;justify-content:space-between}.h span{color:#6b7280}.pl{color:#4b5563;font-style:italic}.aw{color:#1d4ed8}
  ul{padding-left:18px}li{margin-bottom:3px}</style>
  <h1>${profile.name}</h1><div class="role">${profile.role}</div>
  <div class="c">${profile.email} · ${profile.phone.display} · ${profile.location.display} · ${profile.links.github} · ${profile.links.linkedin}</div>
  <h2>Summary</h2><p>${profile.summary} More than three years of professional experience since graduation, from component libraries to full-stack features.</p>
  <h2>Experience</h2>${entries(work)}
  <h2>Skills</h2><p>HTML5, CSS3, JavaScript, React, Tailwind CSS, Bootstrap, Material UI, Vite, Node.js, Express, Firebase, Git, Vercel, Adobe Experience Manager (AEM).</p>
  <h2>Projects</h2><ul><li><b>Portfolio</b>: this site; React, Tailwind CSS and a small Rust server with a contact inbox.</li>
  <li><b>Food Recipes</b>: a REST API for recipes with Node.js, Express and MongoDB.</li>
  <li><b>Elegant Context</b>: a responsive landing page for an interior design studio.</li>
  <li><b>Tuk-Tuk Cambodia</b>: a booking site for city rides and tours.</li></ul>
  <h2>Education</h2>${entries(education)}
  <p style="margin-top:18px;color:#9ca3af;font-size:8.5pt">Sample resume: replace web/public/resume.pdf with your own.</p>`;
}

// ---------------------------------------------------------------- run
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ deviceScaleFactor: 2 });
  const page = await context.newPage();
  if (wanted('logos')) writeLogos();
  if (wanted('icons')) await writeIcons();
  if (wanted('avatar')) {
    await shoot(page, avatarHtml, 400, 400, join(images, 'avatar'), [320, 640], 78);
  }
  if (wanted('projects')) {
    mkdirSync(join(images, 'projects'), { recursive: true });
    for (const [name, html] of Object.entries(projectPages)) {
      await shoot(page, html, 1200, 750, join(images, 'projects', name), [400, 800], 70);
    }
  }
  if (wanted('case-studies')) {
    mkdirSync(join(images, 'case-studies'), { recursive: true });
    for (const [name, html] of Object.entries(caseStudyImages)) {
      await shoot(page, html, 640, 400, join(images, 'case-studies', name), [640, 1280], 70);
    }
  }
  if (wanted('awards')) {
    mkdirSync(join(images, 'awards'), { recursive: true });
    await shoot(page, certificate('Spot Award', '#1d4ed8', 'For stepping in at short notice and shipping an accessible, well-tested release ahead of schedule.'), 1000, 700, join(images, 'awards', 'spot-award'), [480, 960], 70);
    await shoot(page, certificate('Applause Award', '#b45309', 'In appreciation of outstanding teamwork, mentoring and care for quality across the delivery team.'), 1000, 700, join(images, 'awards', 'applause-award'), [480, 960], 70);
  }
  if (wanted('resume')) {
    await page.setContent(resumeHtml(), { waitUntil: 'load' });
    await page.pdf({ path: join(web, 'public/resume.pdf'), format: 'A4', printBackground: true, preferCSSPageSize: true });
    console.log('wrote public/resume.pdf');
  }
} finally {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
}
