/** The resume PDF: uploaded to `/api/media/resume`, served from then on at its usual address. */
import { useId, useState } from 'react';
import { uploadProblem, uploadResume } from '../../api/content';
import { Group } from '../shared/draft/fields';

export function ResumeField({ path }: { path: string }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    setStatus(null);
    try {
      const answer = await uploadResume(file);
      setStatus(`Uploaded: ${answer.path} now serves your new resume (${Math.ceil(answer.bytes / 1024)} KB).`);
    } catch (cause) {
      setProblem(uploadProblem(cause, 'PDF'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group title="Your own PDF" level={3}>
      <p className="text-sm text-gray-400">
        Every Download Resume button links to{' '}
        <a className="link" href={path}>
          {path}
        </a>
        . A new upload replaces the last one at once, without publishing; it is served while the page chooses it (or chooses
        nothing and one was uploaded).
      </p>
      <div>
        <label htmlFor={id} className="field-label">
          Upload a new resume (PDF)
        </label>
        <input
          id={id}
          type="file"
          accept="application/pdf,.pdf"
          disabled={busy}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            void onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          className="block w-full text-sm text-gray-300 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border-0 file:bg-gray-800 file:px-4 file:text-gray-100"
        />
        {busy && (
          <p role="status" className="mt-1.5 text-sm text-gray-400">
            Uploading…
          </p>
        )}
        {status && (
          <p role="status" className="mt-1.5 text-sm text-emerald-300">
            {status}
          </p>
        )}
        {problem && (
          <p id={`${id}-error`} role="alert" className="field-error">
            Resume: {problem}
          </p>
        )}
      </div>
    </Group>
  );
}
