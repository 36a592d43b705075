/**
 * The draft as visitors will see it, rendered by the server (`/api/content/draft/preview`).
 * An iframe cannot tell a failed load from a page, so the address is asked first and a failure
 * is said in words.
 */
import { useEffect, useState } from 'react';
import { PREVIEW_URL, previewAvailable } from '../../api/content';

export function PreviewFrame({ generation }: { generation: number }) {
  const [state, setState] = useState<'checking' | 'ready' | 'unavailable'>('checking');
  const [retry, setRetry] = useState(0);
  useEffect(() => {
    let live = true;
    void previewAvailable().then((ok) => {
      if (live) setState(ok ? 'ready' : 'unavailable');
    });
    return () => {
      live = false;
    };
  }, [generation, retry]);
  return (
    <section aria-labelledby="preview-title" className="rounded-xl border border-gray-800 bg-gray-900/40 p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="preview-title" className="text-xl font-bold text-white">
          Preview
        </h2>
        <button type="button" className="btn btn-ghost px-3" onClick={() => setRetry((n) => n + 1)}>
          Reload preview
        </button>
      </div>
      {state === 'unavailable' ? (
        <p role="status" className="rounded-lg border border-amber-700/60 bg-amber-950/40 p-3 text-sm text-amber-100">
          The preview could not be loaded. Your draft is not affected: save it and press Reload preview, or publish and
          open the site to see it.
        </p>
      ) : (
        state === 'ready' && (
          <iframe
            key={`${generation}-${retry}`}
            title="Preview of the draft"
            src={PREVIEW_URL}
            className="h-[36rem] w-full rounded-lg border border-gray-800 bg-white"
          />
        )
      )}
    </section>
  );
}
