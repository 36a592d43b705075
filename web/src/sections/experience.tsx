import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { Icon } from '../components/icon';
import { awardImages } from '../content/media';
import { education, work, type TimelineEntry } from '../content/timeline';
import type { OpenAward } from '../components/award-dialog';

// The dialog's code is fetched on demand: on the first hover or focus of an award, at the latest on the click.
const loadDialog = () => import('../components/award-dialog');
const AwardDialog = lazy(loadDialog);

/** Work experience and education as two timelines, side by side from 900 px, stacked below. */
export function Experience() {
  const [open, setOpen] = useState<OpenAward | null>(null);
  const close = useCallback(() => setOpen(null), []);

  const show = (entry: TimelineEntry, award: string, index: number, opener: HTMLElement) =>
    setOpen({ entry: entry.title, award, image: index === 0 ? awardImages.spot : awardImages.applause, opener });

  return (
    <section id="experience" aria-labelledby="experience-title" className="section">
      <div className="container-page">
        <h2 id="experience-title" className="section-title">
          Experience &amp; Education
        </h2>
        <div className="mt-12 grid gap-12 md:grid-cols-2 md:gap-10">
          <Timeline title="Work Experience" icon={<Icon name="briefcase" className="size-5"/>} entries={work} onAward={show} />
          <Timeline
            title="Education"
            icon={<Icon name="graduation-cap" className="size-5"/>}
            entries={education}
            onAward={show}
          />
        </div>
      </div>
      {open && (
        <Suspense fallback={null}>
          <AwardDialog award={open} onClose={close} />
        </Suspense>
      )}
    </section>
  );
}

function Timeline({
  title,
  icon,
  entries,
  onAward,
}: {
  title: string;
  icon: ReactNode;
  entries: readonly TimelineEntry[];
  onAward: (entry: TimelineEntry, award: string, index: number, opener: HTMLElement) => void;
}) {
  return (
    <div>
      <h3 className="flex items-center gap-3 text-xl font-semibold">
        <span className="icon-btn pointer-events-none text-blue-300" aria-hidden="true">
          {icon}
        </span>
        {title}
      </h3>
      <ol className="mt-8 grid gap-8 border-l border-gray-700 pl-6 sm:pl-8">
        {entries.map((entry) => (
          <li key={entry.title} className="relative">
            <span
              aria-hidden="true"
              className="absolute top-2 -left-[calc(1.5rem+5px)] size-2.5 rounded-full bg-blue-500 ring-4 ring-gray-950 sm:-left-[calc(2rem+5px)]"
            />
            <p className="text-sm font-medium text-blue-300">{entry.date}</p>
            <h4 className="mt-1 text-lg font-semibold text-white">{entry.title}</h4>
            <p className="text-sm text-gray-400">{entry.place}</p>
            <p className="mt-3 max-w-[65ch] text-gray-300">{entry.description}</p>
            {entry.awards && entry.awards.length > 0 && (
              <ul aria-label={`Awards for ${entry.title}`} className="mt-4 flex flex-wrap gap-2">
                {entry.awards.map((award, index) => (
                  <li key={award}>
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      className="btn btn-secondary min-h-11 px-3 text-sm"
                      onPointerEnter={() => void loadDialog()}
                      onFocus={() => void loadDialog()}
                      onClick={(event) => onAward(entry, award, index, event.currentTarget)}
                    >
                      <Icon name="award" className="size-4 text-amber-300"/>
                      {award}
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
