/**
 * The document's images as the page draws them. A source under `images/` is a file beside this
 * module, bundled (and hashed) by the build; a source under `/media/` is an upload the server
 * serves as it is.
 */
import type { ContentDocument, MediaItem } from './document.generated';

/** An image in a few widths: `src` is the smallest, `srcSet` lists all, width/height give the aspect ratio. */
export interface ResponsiveImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * The bundled images' URLs, by their path under this folder (`images/avatar-320.webp`). The
 * placeholder's case studies' pictures are left out: `/` never shows them, and each address
 * would cost its initial JavaScript bytes (see case-study-media.ts).
 */
export const bundled: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['./images/**/*.{webp,svg,png,jpg}', '!./images/case-studies/**'], {
      eager: true,
      query: '?url',
      import: 'default',
    }),
  ).map(([path, url]) => [path.slice(2), url]),
);

/** The URL of one of the document's image sources, or undefined for a bundled image that is not there. */
export function sourceUrl(src: string): string | undefined {
  return src.startsWith('/media/') ? src : bundled[src];
}

/** The image a media id names, ready for `<img src srcSet width height alt>`; undefined when unknown. */
export function imageFor(document: ContentDocument, id: string): ResponsiveImage | undefined {
  const item: MediaItem | undefined = document.media.find((entry) => entry.id === id);
  if (!item) return undefined;
  const sources = item.sources
    .map((source) => ({ url: sourceUrl(source.src), width: source.width }))
    .filter((source): source is { url: string; width: number } => source.url !== undefined);
  const [smallest] = sources;
  if (!smallest) return undefined;
  return {
    src: smallest.url,
    srcSet: sources.map((source) => `${source.url} ${source.width}w`).join(', '),
    width: item.width,
    height: item.height,
    alt: item.alt,
  };
}

/**
 * A bundled logo's variant for the light scheme (`logos/vercel-on-light.svg` beside
 * `logos/vercel.svg`), for a logo whose colour would vanish on a white card; undefined when it has
 * none (it reads on both).
 */
export function lightVariant(document: ContentDocument, id: string): string | undefined {
  const src = document.media.find((entry) => entry.id === id)?.sources[0]?.src;
  return src?.endsWith('.svg') ? bundled[src.replace(/\.svg$/, '-on-light.svg')] : undefined;
}
