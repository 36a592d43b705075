// Rasterises SVG at build time with resvg (WebAssembly) and a bundled font: the PNG favicons
// from favicon.svg. (The link preview image is the server's, drawn from the published document.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

const require = createRequire(import.meta.url);
const FONT_FAMILY = 'DejaVu Sans';
const fonts = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) =>
  readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)),
);

let ready;
function init() {
  ready ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
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

/** The favicon drawn on an opaque square (for the apple-touch icon, which iOS shows without transparency). */
export function opaqueIcon(faviconSvg, background) {
  const inner = faviconSvg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const viewBox = /viewBox="([^"]+)"/.exec(faviconSvg)?.[1] ?? '0 0 64 64';
  const [, , w, h] = viewBox.split(/\s+/).map(Number);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}"><rect width="${w}" height="${h}" fill="${background}"/><g transform="translate(${w * 0.1} ${h * 0.1}) scale(0.8)">${inner}</g></svg>`;
}
