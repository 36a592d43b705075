/** An image uploaded into a draft: the media item the page, a case study or a post keeps of it. */
import type { MediaItem } from '../../../content/document';
import type { UploadedImage } from '../../../api/content';

/** Adds an uploaded image to `media` (alt text carried over from `previous`) and answers its id. */
export function addUpload(document: { media: MediaItem[] }, upload: UploadedImage, alt: string): string {
  const id = `upload-${upload.id.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 30)}`;
  const sources = [...upload.sources].sort((a, b) => a.width - b.width);
  const item: MediaItem = { id, alt, width: upload.width, height: upload.height, sources };
  const index = document.media.findIndex((m) => m.id === id);
  if (index >= 0) document.media[index] = item;
  else document.media.push(item);
  return id;
}
