/**
 * An image of a draft (the page's photo, a case study's picture, a post's cover): what it shows
 * now, its alt text, and an upload that replaces it. The server re-encodes the upload and answers
 * its widths, which become a media item the field points at. After an upload focus goes to the alt
 * text, which is kept unless `keepAlt` says it describes another picture.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { MediaItem } from '../../../content/document';
import { uploadImage, uploadProblem } from '../../../api/content';
import { fieldId, TextField } from './fields';
import type { Problems } from './draft-source';
import { addUpload } from './uploads';

export interface ImageUploadFieldProps<D extends { media: MediaItem[] }> {
  /** The path of the reference, e.g. `projects[1].image`. */
  path: string;
  label: string;
  /** The document or case study whose `media` holds the image. */
  document: D;
  /** The media item shown; none (an empty id) for a field without an image yet. */
  mediaId: string;
  problems: Problems;
  /** Points the field at another media item, inside an edit. */
  onPoint: (draft: D, id: string) => void;
  edit: (change: (draft: D) => void) => void;
  /** Drops the media items nothing uses any more, inside an edit (`pruneUnused` for the page). */
  prune: (draft: D) => void;
  /** Takes the image away, inside an edit: offered when given and the field shows one. */
  onRemove?: (draft: D) => void;
}

export function ImageUploadField<D extends { media: MediaItem[] }>({
  path,
  label,
  document,
  mediaId,
  problems,
  onPoint,
  edit,
  prune,
  onRemove,
  resolve,
  keepAlt,
}: ImageUploadFieldProps<D> & {
  /** Where the browser finds a source (an upload's path is its address). */
  resolve: (src: string) => string | undefined;
  /** Whether an alt text describes the owner's picture, and so stays with the upload that replaces it. */
  keepAlt: (alt: string) => boolean;
}) {
  const uploadId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const index = document.media.findIndex((m) => m.id === mediaId);
  const item = index >= 0 ? document.media[index] : undefined;
  const smallest = item?.sources[0];
  const preview = smallest ? resolve(smallest.src) : undefined;
  const referenceProblem = problems[path];
  const errorId = `${uploadId}-error`;
  const altPath = `media[${index}].alt`;
  const lower = label.toLowerCase();
  // The upload's media item, once the field points at it: its alt text is focused then.
  const uploaded = useRef<string | null>(null);
  useEffect(() => {
    if (uploaded.current !== mediaId || !item) return;
    uploaded.current = null;
    window.document.getElementById(fieldId(altPath))?.focus();
  });

  async function onFile(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const upload = await uploadImage(file);
      edit((draft) => {
        const alt = item?.alt ?? '';
        const id = addUpload(draft, upload, keepAlt(alt) ? alt : '');
        uploaded.current = id;
        onPoint(draft, id);
        prune(draft);
      });
    } catch (cause) {
      setProblem(uploadProblem(cause, 'image'));
    } finally {
      setBusy(false);
    }
  }

  const uploadProblemText = problem ?? referenceProblem;
  return (
    <fieldset className="rounded-lg border border-gray-800 p-4" id={fieldId(path)} tabIndex={-1}>
      <legend className="px-1 text-sm font-medium text-gray-200">{label}</legend>
      <div className="flex flex-wrap items-start gap-4">
        {preview && item ? (
          <img
            src={preview}
            alt=""
            width={item.width}
            height={item.height}
            className="h-20 w-auto max-w-32 rounded border border-gray-800 bg-gray-950 object-contain"
            style={{ aspectRatio: `${item.width} / ${item.height}` }}
          />
        ) : (
          <p className="text-sm text-gray-400">{item ? 'Uploaded image' : 'No image yet'}</p>
        )}
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <label htmlFor={uploadId} className="field-label">
              Upload a new {lower}
            </label>
            <input
              id={uploadId}
              type="file"
              accept="image/*"
              disabled={busy}
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
              aria-invalid={uploadProblemText ? true : undefined}
              aria-describedby={uploadProblemText ? errorId : undefined}
              className="block w-full text-sm text-gray-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border-0 file:bg-gray-800 file:px-4 file:text-gray-100"
            />
            {busy && (
              <p role="status" className="mt-1.5 text-sm text-gray-400">
                Uploading…
              </p>
            )}
            {uploadProblemText && (
              <p id={errorId} role={problem ? 'alert' : undefined} className="field-error">
                {label}: {uploadProblemText}
              </p>
            )}
          </div>
          {item && (
            <TextField
              path={altPath}
              label={`Alt text of the ${lower}`}
              hint="What the image shows, for people who cannot see it."
              required={false}
              value={item.alt}
              problem={problems[altPath]}
              onChange={(value) =>
                edit((draft) => {
                  const target = draft.media.find((m) => m.id === mediaId);
                  if (target) target.alt = value;
                })
              }
            />
          )}
          {item && onRemove && (
            <button
              type="button"
              className="btn btn-ghost px-3 text-red-300"
              onClick={() => {
                edit((draft) => {
                  onRemove(draft);
                  prune(draft);
                });
                window.document.getElementById(uploadId)?.focus();
              }}
            >
              Remove the {lower}
            </button>
          )}
        </div>
      </div>
    </fieldset>
  );
}
