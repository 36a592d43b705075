import type { ReactNode } from 'react';
import type { Award, TimelineEntry } from '../content/document.generated';
import { Icon } from './icon';
import { useTexts } from '../i18n/locale';

/** A titled vertical timeline; entries with awards get a button per award. */
export function Timeline({
  title,
  icon,
  entries,
  onAward,
  onAwardIntent,
}: {
  title: string;
  icon: ReactNode;
  entries: readonly TimelineEntry[];
  onAward: (entry: TimelineEntry, award: Award, opener: HTMLElement) => void;
  /** Called when an award is about to be chosen (hover, focus): a chance to fetch the dialog early. */
  onAwardIntent?: () => void;
}) {
  const texts = useTexts();
  return (
    <div>
      <h3 className="flex items-center gap-3 text-xl font-semibold">
        <span className="icon-btn pointer-events-none text-blue-300" aria-hidden="true">
          {icon}
        </span>
        {title}
      </h3>
      <ol className="mt-6 grid gap-6 border-s border-gray-700 ps-6 sm:ps-8">
        {entries.map((entry) => (
          <li key={entry.title} className="relative">
            <span
              aria-hidden="true"
              className="absolute top-2 -start-[calc(1.5rem+5px)] size-2.5 rounded-full bg-blue-500 ring-4 ring-gray-950 sm:-start-[calc(2rem+5px)]"
            />
            <p className="text-sm font-medium text-blue-300">{entry.date}</p>
            <h4 className="mt-1 text-lg font-semibold text-white">{entry.title}</h4>
            <p className="text-sm text-gray-400">{entry.place}</p>
            <p className="mt-3 max-w-[65ch] text-gray-300">{entry.description}</p>
            {entry.awards.length > 0 && (
              <ul aria-label={texts.t('experience.awardsFor', { title: entry.title })} className="mt-4 flex flex-wrap gap-2">
                {entry.awards.map((award) => (
                  <li key={award.title}>
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      className="btn btn-secondary min-h-11 px-3 text-sm"
                      onPointerEnter={onAwardIntent}
                      onFocus={onAwardIntent}
                      onClick={(event) => onAward(entry, award, event.currentTarget)}
                    >
                      <Icon name="award" className="size-4 text-amber-300" />
                      {award.title}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
