/**
 * An image of the document (the photo, a screenshot, a certificate) or of a case study (a
 * gallery's picture): the draft's image field (`shared/draft/image-upload-field.tsx`) with the
 * page's bundled images shown by their built addresses, and the alt text kept across an upload
 * unless it was the placeholder document's (that describes another picture).
 */
import { defaultDocument, type MediaItem } from '../../content/document';
import { ImageUploadField, type ImageUploadFieldProps } from '../shared/draft/image-upload-field';
import { sourceUrl } from './media';

const ownAlt = (alt: string) => !defaultDocument.media.some((m) => m.alt === alt);

export function ImageField<D extends { media: MediaItem[] }>(props: ImageUploadFieldProps<D>) {
  return <ImageUploadField<D> {...props} resolve={sourceUrl} keepAlt={ownAlt} />;
}
