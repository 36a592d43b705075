import { useEffect } from 'react';
import { X } from 'lucide-react';
import type { Notice } from './use-inbox';

/** What just happened ("Moved to the trash."), with Undo where it can be undone. */
export function NoticeBar({ notice, onDismiss }: { notice: Notice | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(onDismiss, notice.undo ? 10_000 : 6_000);
    return () => window.clearTimeout(timer);
  }, [notice, onDismiss]);

  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-30 flex justify-center px-4">
      <div role={notice?.tone === 'error' ? 'alert' : 'status'} className="pointer-events-auto">
        {notice && (
          <div
            className={`flex items-center gap-3 rounded-xl border px-4 py-2 shadow-xl shadow-black/40 ${
              notice.tone === 'error' ? 'border-red-400/40 bg-red-950 text-red-100' : 'border-gray-700 bg-gray-900 text-gray-100'
            }`}
          >
            <span>{notice.text}</span>
            {notice.undo && (
              <button
                type="button"
                className="btn btn-ghost min-h-11 px-3 text-blue-300"
                onClick={() => {
                  notice.undo?.();
                  onDismiss();
                }}
              >
                Undo
              </button>
            )}
            <button type="button" aria-label="Dismiss" className="icon-btn border-0 bg-transparent" onClick={onDismiss}>
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
