/**
 * The document's images as the page uses them. A source `images/…` is a file beside this module,
 * bundled (hashed) by Vite; any other source is a path this server serves.
 */
import { defaultDocument as doc } from './document';

/** An image in a few widths: `src` is the smallest, `srcSet` lists all, width/height give the aspect ratio. */
export interface ResponsiveImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  alt: string;
}

const bundled = import.meta.glob<string>('./images/**/*.{webp,avif,png,jpg,jpeg,svg}', {
  eager: true,
  import: 'default',
});

/** The URL of a media source. */
export function mediaUrl(src: string): string {
  return bundled[`./${src}`] ?? src;
}

/** The media item with this id, as a responsive image. */
export function image(id: string): ResponsiveImage {
  const item = doc.media.find((m) => m.id === id);
  if (!item) throw new Error(`no media item ${id}`);
  const urls = item.sources.map((source) => ({ url: mediaUrl(source.src), width: source.width }));
  return {
    src: urls[0]?.url ?? '',
    srcSet: urls.map(({ url, width }) => `${url} ${width}w`).join(', '),
    width: item.width,
    height: item.height,
    alt: item.alt,
  };
}

export const photo: ResponsiveImage = image(doc.profile.photo);

/** The certificate shown for an entry's first award (index 0) and for any other award. */
export const awardImages: { spot: ResponsiveImage; applause: ResponsiveImage } = {
  spot: image('spot-award'),
  applause: image('applause-award'),
};
