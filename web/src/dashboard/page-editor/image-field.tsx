/**
 * An image of the document (the photo, a screenshot, a certificate) or of a case study (a
 * gallery's picture): what it shows now, its alt text, and an upload that replaces it. The server re-encodes the upload and answers its
 * widths, which become a media item the field points at. After an upload focus goes to the alt
 * text, which is kept unless it was the placeholder document's (that describes another picture).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { defaultDocument, type MediaItem } from '../../content/document';
import { uploadImage, uploadProblem } from '../../api/content';
import { fieldId, TextField } from './fields';
import { addUpload, sourceUrl } from './media';
import type { Problems } from './validate';

export function ImageField<D extends { media: MediaItem[] }>({
  path,
  label,
  document,
  mediaId,
  problems,
  onPoint,
  edit,
  prune,
}: {
  /** The path of the reference, e.g. `projects[1].image`. */
  path: string;
  label: string;
  /** The document or case study whose `media` holds the image. */
  document: D;
  mediaId: string;
  problems: Problems;
  /** Points the field at another media item, inside an edit. */
  onPoint: (draft: D, id: string) => void;
  edit: (change: (draft: D) => void) => void;
  /** Drops the media items nothing uses any more, inside an edit (`pruneUnused` for the page). */
  prune: (draft: D) => void;
}) {
  const uploadId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const index = document.media.findIndex((m) => m.id === mediaId);
  const item = index >= 0 ? document.media[index] : undefined;
  const smallest = item?.sources[0];
  const preview = smallest ? sourceUrl(smallest.src) : undefined;
  const referenceProblem = problems[path];
  const errorId = `${uploadId}-error`;
  const altPath = `media[${index}].alt`;
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
        const id = addUpload(draft, upload, defaultDocument.media.some((m) => m.alt === alt) ? '' : alt);
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
              Upload a new {label.toLowerCase()}
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
              label={`Alt text of the ${label.toLowerCase()}`}
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
        </div>
      </div>
    </fieldset>
  );
}
