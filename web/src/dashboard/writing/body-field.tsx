/**
 * A post's text: its Markdown in a monospace text area, its problem beside it (the server's names
 * its line: "Line 12: …"), and images put in at the cursor, pasted or chosen: each is uploaded
 * (`POST /api/media`), added to the post's `media` (so the server takes its address) and written
 * as `![description](/media/…)`, its description selected so that typing replaces it.
 */
import { useId, useLayoutEffect, useRef, useState, type ClipboardEvent } from 'react';
import { uploadImage, uploadProblem } from '../../api/content';
import type { Post } from '../../api/posts';
import { sentence } from '../../api/problems';
import { fieldId } from '../shared/draft/fields';
import { addUpload } from '../shared/draft/uploads';
import { insertImage } from './insert-image';
import { imageSrc, prunePostMedia } from './post-check';

const HINT =
  'Markdown: ## headings, **strong**, *emphasis*, [links](https://…), lists, > quotes, `code`, fenced code with its language (```rust), tables and footnotes. Paste an image, or add one below, to put it at the cursor.';

/** What an image is described as until the owner says what it shows. */
export const ALT_PLACEHOLDER = 'Describe the image';

export function BodyField({
  post,
  problem,
  edit,
  className = '',
}: {
  post: Post;
  problem: string | undefined;
  edit: (change: (draft: Post) => void) => void;
  className?: string;
}) {
  const id = fieldId('body');
  const uploadId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  // Where the cursor was last (the file picker takes the focus away).
  const cursor = useRef<[number, number]>([post.body.length, post.body.length]);
  // The description to select once the text with the image is drawn.
  const select = useRef<[number, number] | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  useLayoutEffect(() => {
    const range = select.current;
    const element = area.current;
    if (!range || !element || element.value !== post.body) return;
    select.current = null;
    element.focus();
    element.setSelectionRange(range[0], range[1]);
    cursor.current = range;
  });

  const remember = () => {
    const element = area.current;
    if (element) cursor.current = [element.selectionStart, element.selectionEnd];
  };

  async function add(file: File) {
    setBusy(true);
    setFailure(null);
    setStatus('Uploading the image…');
    try {
      const upload = await uploadImage(file);
      edit((draft) => {
        const id = addUpload(draft, upload, '');
        const src = imageSrc(draft, id)!;
        // At the cursor as it is now: the owner may have typed on while the image uploaded.
        const [start, end] = area.current === window.document.activeElement ? [area.current!.selectionStart, area.current!.selectionEnd] : cursor.current;
        const inserted = insertImage(draft.body, start, end, ALT_PLACEHOLDER, src);
        draft.body = inserted.text;
        select.current = inserted.alt;
        prunePostMedia(draft);
      });
      setStatus('Image added at the cursor. Its description is selected: type what it shows.');
    } catch (cause) {
      setStatus('');
      setFailure(uploadProblem(cause, 'image'));
    } finally {
      setBusy(false);
    }
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
    if (!file) return;
    event.preventDefault();
    remember();
    void add(file);
  }

  const describedBy = [`${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={`flex min-w-0 flex-col ${className}`}>
      <label htmlFor={id} className="field-label">
        Text, in Markdown
      </label>
      <textarea
        ref={area}
        id={id}
        value={post.body}
        required
        spellCheck
        rows={18}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
        className="field-input min-h-72 flex-1 font-mono text-sm leading-6 lg:min-h-[min(70dvh,44rem)]"
        onChange={(event) => {
          cursor.current = [event.target.selectionStart, event.target.selectionEnd];
          const body = event.target.value;
          edit((draft) => void (draft.body = body));
        }}
        onSelect={remember}
        onBlur={remember}
        onPaste={onPaste}
      />
      {problem && (
        <p id={`${id}-error`} className="field-error">
          {sentence(id, problem, 'The text')}
        </p>
      )}
      <p id={`${id}-hint`} className="mt-1.5 text-sm text-gray-400">
        {HINT}
      </p>
      <div className="mt-3">
        <label htmlFor={uploadId} className="field-label">
          Add an image at the cursor
        </label>
        <input
          id={uploadId}
          type="file"
          accept="image/*"
          disabled={busy}
          aria-describedby={failure ? `${uploadId}-error` : undefined}
          aria-invalid={failure ? true : undefined}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void add(file);
          }}
          className="block w-full text-sm text-gray-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border-0 file:bg-gray-800 file:px-4 file:text-gray-100"
        />
        <div aria-live="polite" className="mt-1.5 text-sm text-gray-400">
          {status && <p role="status">{status}</p>}
        </div>
        {failure && (
          <p id={`${uploadId}-error`} role="alert" className="field-error">
            The image: {failure}
          </p>
        )}
      </div>
    </div>
  );
}
