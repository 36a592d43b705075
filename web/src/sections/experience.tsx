import { lazy, Suspense, useCallback, useState } from 'react';
import { Icon } from '../components/icon';
import { Timeline } from '../components/timeline';
import { useContent } from '../content/context';
import type { Award, TimelineEntry } from '../content/document.generated';
import { imageFor } from '../content/media';
import type { OpenAward } from '../components/award-dialog';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?experience,award&part';
import { SectionHeading } from './section-heading';

addEnglish(englishTexts);

// The dialog's code is fetched on demand: on the first hover or focus of an award, at the latest on the click.
const loadDialog = () => import('../components/award-dialog');
const AwardDialog = lazy(loadDialog);

/** Work experience and education as two timelines, side by side from 900 px, stacked below. */
export function Experience() {
  const content = useContent();
  const texts = useTexts();
  const [open, setOpen] = useState<OpenAward | null>(null);
  const close = useCallback(() => setOpen(null), []);
  const prefetch = () => void loadDialog();

  const show = (entry: TimelineEntry, award: Award, opener: HTMLElement) =>
    setOpen({ entry: entry.title, award: award.title, image: imageFor(content, award.certificate), opener });

  return (
    <section id="experience" aria-labelledby="experience-title" className="section">
      <div className="container-page">
        <SectionHeading id="experience-title" text={content.sections.experience} />
        <div className="mt-8 grid gap-10 md:grid-cols-2">
          <Timeline
            title={texts.t('experience.work')}
            icon={<Icon name="briefcase" className="size-5" />}
            entries={content.experience}
            onAward={show}
            onAwardIntent={prefetch}
          />
          <Timeline
            title={texts.t('experience.education')}
            icon={<Icon name="graduation-cap" className="size-5" />}
            entries={content.education}
            onAward={show}
            onAwardIntent={prefetch}
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
