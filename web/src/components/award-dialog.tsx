import { useEffect, useId, useRef } from 'react';
import { Icon } from './icon';
import type { ResponsiveImage } from '../content/media';
import { useTexts } from '../i18n/locale';

export interface OpenAward {
  /** The timeline entry the award belongs to, e.g. "Analyst". */
  entry: string;
  award: string;
  /** Its certificate, when the document has the image. */
  image: ResponsiveImage | undefined;
  /** The control that opened the dialog: focus goes back to it on close. */
  opener: HTMLElement | null;
}

/**
 * Loaded on demand (default export for React.lazy): the first award click fetches it.
 * A native modal <dialog> showing an award certificate. The platform gives Escape, the focus trap
 * and the backdrop; a click on the backdrop (outside the panel) and the Close button close it too.
 */
export default function AwardDialog({ award, onClose }: { award: OpenAward; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const texts = useTexts();

  // Mounted when an award is chosen: open as a modal at once.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  // Escape, the Close button and backdrop clicks all end in the dialog's close event.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleClose = () => {
      onClose();
      award.opener?.focus();
    };
    dialog.addEventListener('close', handleClose);
    return () => dialog.removeEventListener('close', handleClose);
  }, [award, onClose]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto w-[min(92vw,760px)] max-w-none rounded-xl border border-gray-700 bg-transparent p-0 text-gray-200 backdrop:bg-gray-950/80 backdrop:backdrop-blur-sm"
      onClick={(event) => {
        // The panel fills the dialog box, so a click whose target is the dialog itself is on the backdrop.
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      <div className="bg-gray-900 p-4 sm:p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h3 id={titleId} className="text-xl font-semibold text-white">
              {award.award}
            </h3>
            <p className="text-sm text-gray-400">{award.entry}</p>
          </div>
          <button type="button" className="btn btn-secondary" onClick={() => ref.current?.close()} autoFocus>
            <Icon name="x" className="size-4" />
            {texts.t('award.close')}
          </button>
        </div>
        {award.image && (
        <img
          src={award.image.src}
          srcSet={award.image.srcSet}
          sizes="(min-width: 800px) 712px, 88vw"
          width={award.image.width}
          height={award.image.height}
          alt={award.image.alt}
          className="w-full rounded-lg"
        />
        )}
      </div>
    </dialog>
  );
}
