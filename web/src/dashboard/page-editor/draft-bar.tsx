/**
 * The bar at the top of the Page tab, in view however far the owner scrolls (below the dashboard's
 * header): the tab's title, whether the draft is saved, whether the live page shows it or which of its changes are
 * not live yet (each a link to its field), Publish (disabled while there is nothing to publish),
 * and, once something is published, links to the live page and its languages.
 */
import { ChevronDown } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { loadPublished, publishDraft, type PublishedContent } from '../../api/content';
import { draftChanges, languageName, type Change } from './changes';
import { PublishButton } from '../shared/draft/publish-panel';
import { ScheduleButton } from '../shared/draft/schedule-button';
import { SaveStatus } from '../shared/draft/save-status';
import { StickyBar } from '../shared/draft/sticky-bar';
import type { DraftState } from './use-draft';

/** The published document, loaded when the editor opens, on returning to the tab, and on asking (after a publish or a revert). */
export function usePublished() {
  const [live, setLive] = useState<PublishedContent | null>(null);
  // Not known (the server away): Publish stays enabled, and the next look tries again.
  const refresh = useCallback(() => loadPublished().then(setLive, () => {}), []);
  useEffect(() => {
    void refresh();
    const again = () => void refresh();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [refresh]);
  return { live, refresh };
}

export type Published = ReturnType<typeof usePublished>;

const NOTHING = 'nothing-to-publish';

export function DraftBar({
  draft,
  published,
  heading,
  onPublished,
  onOpen,
}: {
  draft: DraftState;
  published: Published;
  /** The tab's title, as the shell shows it while loading. */
  heading: ReactNode;
  onPublished: () => void;
  /** A change's link was followed: shows its field. */
  onOpen: (change: Change) => void;
}) {
  const { live } = published;
  const { document } = draft;
  // The fixed texts' names are a chunk of their own, loaded once a fixed text is changed.
  const [names, setNames] = useState<typeof import('./fixed-text-names') | null>(null);
  const changes = useMemo(
    () => (live && document ? draftChanges(live.document, document, names?.fixedTextName) : null),
    [live, document, names],
  );
  const fixedTexts = !names && changes?.some((change) => change.path.includes('strings'));
  useEffect(() => {
    if (fixedTexts) void import('./fixed-text-names').then(setNames);
  }, [fixedTexts]);
  const list = useRef<HTMLDetailsElement>(null);
  const count = changes?.length ?? 0;

  return (
    <StickyBar label="Draft and live page">
      <div className="flex flex-wrap items-center gap-x-4">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 text-sm">
          <div className="flex min-h-11 items-center">{heading}</div>
          <SaveStatus draft={draft} />
          {changes === null ? null : count === 0 ? (
            <p className="text-gray-300">The live page shows this draft</p>
          ) : (
            <details ref={list} className="group text-amber-200">
              <summary className="flex min-h-11 cursor-pointer items-center gap-1 rounded-md">
                {count === 1 ? '1 change' : `${count} changes`} not yet live
                <ChevronDown aria-hidden="true" className="size-4 group-open:rotate-180" />
              </summary>
              <ul
                aria-label="Changes not yet live"
                className="absolute inset-x-5 top-full max-h-[50vh] max-w-md overflow-auto rounded-b-lg border border-gray-700 bg-gray-900 p-3 shadow-lg sm:inset-x-8"
              >
                {changes.map((change) => (
                  <li key={`${change.path} ${change.kind}`}>
                    <a
                      href={`?view=page&part=${change.part}`}
                      className="link flex min-h-8 items-center text-gray-100"
                      onClick={(event) => {
                        event.preventDefault();
                        list.current!.open = false;
                        onOpen(change);
                      }}
                    >
                      {change.name}
                    </a>
                  </li>
                ))}
              </ul>
            </details>
          )}
          {live && live.version > 0 && (
            <p className="flex flex-wrap gap-x-3">
              <a href="/" target="_blank" rel="noopener" className="link">
                View the live page
              </a>
              {live.document.languages
                ?.filter((language) => language.published)
                .map(({ tag }) => (
                  <a key={tag} href={`/${tag.toLowerCase()}/`} target="_blank" rel="noopener" className="link" aria-label={`View the live page in ${languageName(tag)}`}>
                    {languageName(tag)}
                  </a>
                ))}
            </p>
          )}
        </div>
        <span id={NOTHING} hidden>
          Nothing to publish: the live page shows this draft.
        </span>
        <ScheduleButton
          schedule={publishDraft}
          what="page"
          until="visitors see the page as it is live now"
          saveFirst={draft.flush}
          onScheduled={onPublished}
        />
        <PublishButton saveFirst={draft.flush} onPublished={onPublished} nothing={count === 0 && changes ? NOTHING : undefined} />
      </div>
    </StickyBar>
  );
}
