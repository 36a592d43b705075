/** A native modal dialog that asks before something that cannot be taken back quietly. */
import { useEffect, useRef, type ReactNode } from 'react';

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  confirmDisabled = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The dialog still needs something of the owner (a field left empty). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const titleId = `${confirmLabel.replace(/\W+/g, '-').toLowerCase()}-dialog-title`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2.5rem)] max-w-md rounded-xl border border-gray-800 bg-gray-900 p-6 text-gray-300 shadow-2xl shadow-black/50 backdrop:bg-black/70"
    >
      <h2 id={titleId} className="text-xl font-bold text-white">
        {title}
      </h2>
      <div className="mt-3 space-y-2">{children}</div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={confirmDisabled}
          onClick={() => {
            onConfirm();
            ref.current?.close();
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
