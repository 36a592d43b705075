// Rasterises SVG templates at build time with resvg (WebAssembly) and a bundled font: the link
// preview image from the owner's name, role and photo, and the PNG favicons from favicon.svg.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import { encodePng } from './png.mjs';

const require = createRequire(import.meta.url);
const FONT_FAMILY = 'DejaVu Sans';
const fonts = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) =>
  readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)),
);

let ready;
function init() {
  // The WebP decoder builds an ImageData, which Node lacks.
  globalThis.ImageData ??= class {
    constructor(data, width, height) {
      Object.assign(this, { data, width, height });
    }
  };
  ready ??= Promise.all([
    initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'))),
    WebAssembly.compile(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm'))).then(initWebp),
  ]);
  return ready;
}

/** Renders an SVG document to PNG bytes, `width` pixels wide. */
export async function svgToPng(svg, width) {
  await init();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { fontBuffers: fonts, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
  });
  return Buffer.from(resvg.render().asPng());
}

/** A raster image as a data URL resvg can draw (PNG and JPEG as they are, WebP converted to PNG). */
export async function imageDataUrl(bytes, file) {
  await init();
  if (/\.png$/i.test(file)) return `data:image/png;base64,${bytes.toString('base64')}`;
  if (/\.jpe?g$/i.test(file)) return `data:image/jpeg;base64,${bytes.toString('base64')}`;
  if (/\.webp$/i.test(file)) {
    const image = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    return `data:image/png;base64,${encodePng(image.data, image.width, image.height).toString('base64')}`;
  }
  return null;
}

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);

/** Greedy word wrap by an estimated glyph width (DejaVu Sans averages about 0.55 em). */
function wrap(text, fontSize, maxWidth, maxLines) {
  const perLine = Math.floor(maxWidth / (fontSize * 0.55));
  const lines = [];
  let line = '';
  for (const word of String(text).split(/\s+/)) {
    if (line && (line + ' ' + word).length > perLine) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = lines[maxLines - 1].replace(/\s*\S*$/, '') + '…';
  }
  return lines;
}

/** The 1200x630 link preview: name, role, summary and the photo (or initials without one). */
export async function previewImage({ name, role, summary }, photo) {
  const width = 1200;
  const height = 630;
  const nameSize = name.length > 18 ? 60 : 72;
  const summaryLines = wrap(summary, 26, 640, 4);
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const cx = 945;
  const cy = 315;
  const r = 165;
  const portrait = photo
    ? `<image x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" preserveAspectRatio="xMidYMid slice" clip-path="url(#round)" href="${photo}"/>`
    : `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#1e3a8a"/><text x="${cx}" y="${cy + 40}" text-anchor="middle" font-size="120" font-weight="bold" fill="#fff">${escape(initials)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#030712"/><stop offset="1" stop-color="#111827"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.79" cy="0.5" r="0.45">
      <stop offset="0" stop-color="#2563eb" stop-opacity="0.35"/><stop offset="1" stop-color="#2563eb" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="round"><circle cx="${cx}" cy="${cy}" r="${r}"/></clipPath>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <rect width="${width}" height="${height}" fill="url(#glow)"/>
  <rect x="80" y="120" width="64" height="6" rx="3" fill="#3b82f6"/>
  <text x="80" y="${160 + nameSize}" font-size="${nameSize}" font-weight="bold" fill="#ffffff">${escape(name)}</text>
  <text x="80" y="${230 + nameSize}" font-size="36" fill="#60a5fa">${escape(role)}</text>
  ${summaryLines.map((line, i) => `<text x="80" y="${310 + nameSize + i * 38}" font-size="26" fill="#d1d5db">${escape(line)}</text>`).join('\n  ')}
  <circle cx="${cx}" cy="${cy}" r="${r + 10}" fill="none" stroke="#3b82f6" stroke-width="6"/>
  ${portrait}
</svg>`;
  return svgToPng(svg, width);
}

/** The favicon drawn on an opaque square (for the apple-touch icon, which iOS shows without transparency). */
export function opaqueIcon(faviconSvg, background) {
  const inner = faviconSvg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const viewBox = /viewBox="([^"]+)"/.exec(faviconSvg)?.[1] ?? '0 0 64 64';
  const [, , w, h] = viewBox.split(/\s+/).map(Number);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}"><rect width="${w}" height="${h}" fill="${background}"/><g transform="translate(${w * 0.1} ${h * 0.1}) scale(0.8)">${inner}</g></svg>`;
}
