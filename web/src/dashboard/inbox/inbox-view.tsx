import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { AlertTriangle, Inbox as InboxIcon, LoaderCircle, Search } from 'lucide-react';
import type { Folder } from '../../api/inbox';
import { FolderNav } from './folder-nav';
import { MessageList } from './message-list';
import { NoticeBar } from './notice-bar';
import type { Inbox } from './use-inbox';
import type { DeliveryState } from './use-delivery';
import { DeliveryBanner, TestEmailResult } from './delivery-banner';

// The opened message and its conversation, and the site mailbox's panel: chunks of their own,
// fetched when a message first opens and when the inbox shows.
const MessageView = lazy(() => import('./message-view'));
const MailboxPanel = lazy(() => import('./mailbox-panel'));

const TITLES: Record<Folder, string> = { inbox: 'Inbox', spam: 'Spam', trash: 'Trash' };

const EMPTY: Record<Folder, { title: string; text: string }> = {
  inbox: {
    title: 'No messages yet',
    text: 'Messages sent from the contact form on your portfolio arrive here.',
  },
  spam: { title: 'No spam', text: 'Messages caught by the spam checks, or that you mark as spam, wait here.' },
  trash: { title: 'The trash is empty', text: 'Deleted messages stay here until you delete them for good.' },
};

/** The folders, the search, the list and the opened message. */
export function InboxView({ inbox, delivery }: { inbox: Inbox; delivery: DeliveryState }) {
  const searchId = useId();
  const [text, setText] = useState(inbox.query);
  const { search, query } = inbox;

  // Search as the owner types, a moment after the last key.
  useEffect(() => {
    if (text.trim() === query) return;
    const timer = window.setTimeout(() => search(text), 300);
    return () => window.clearTimeout(timer);
  }, [text, query, search]);

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    search(text);
  }

  const opened = inbox.opened;
  const headingRef = useRef<HTMLHeadingElement>(null);

  return (
    <div className="container-page grid grid-cols-1 gap-6 py-6 md:grid-cols-[12rem_minmax(0,1fr)] md:py-8">
      <aside className="min-w-0">
        <FolderNav
          folder={inbox.folder}
          unread={inbox.unread}
          onSelect={(folder) => {
            inbox.setFolder(folder);
            headingRef.current?.focus();
          }}
        />
        <Suspense fallback={null}>
          <MailboxPanel />
        </Suspense>
      </aside>

      <section aria-labelledby="folder-title" className="min-w-0">
        <DeliveryBanner health={delivery.health} />
        <TestEmailResult test={delivery.test} onDismiss={delivery.dismissTest} />
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 id="folder-title" ref={headingRef} tabIndex={-1} className="text-heading font-bold text-white outline-none">
              {TITLES[inbox.folder]}
            </h1>
            <p className="text-sm text-gray-400" aria-live="polite">
              {inbox.unread === null ? '\u00a0' : `${inbox.unread} unread in the inbox`}
            </p>
          </div>
          <form role="search" onSubmit={onSearch} className="w-full sm:w-80">
            <label htmlFor={searchId} className="sr-only">
              Search messages
            </label>
            <div className="relative">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-gray-400" />
              <input
                id={searchId}
                type="search"
                value={text}
                maxLength={200}
                onChange={(event) => setText(event.target.value)}
                placeholder="Search messages"
                className="field-input pl-9"
              />
            </div>
          </form>
        </div>

        <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <div className={opened ? 'hidden lg:block' : undefined}>
            <ListArea inbox={inbox} delivery={delivery} />
          </div>
          <div className={opened ? undefined : 'hidden lg:block'}>
            {opened?.status === 'ready' && (
              <Suspense fallback={<Opening />}>
                <MessageView key={opened.id} inbox={inbox} message={opened.message} conversation={opened.conversation} delivery={delivery} />
              </Suspense>
            )}
            {opened?.status === 'loading' && <Opening />}
            {opened?.status === 'error' && (
              <div role="alert" className="rounded-xl border border-red-400/40 bg-red-950/30 p-6 text-red-100">
                <p>{opened.error}</p>
                <button type="button" className="btn btn-secondary mt-4" onClick={inbox.close}>
                  Back to the list
                </button>
              </div>
            )}
            {!opened && inbox.items.length > 0 && (
              <p className="rounded-xl border border-dashed border-gray-800 p-10 text-center text-gray-400">
                Choose a message to read it in full.
              </p>
            )}
          </div>
        </div>
      </section>
      <NoticeBar notice={inbox.notice} onDismiss={inbox.dismissNotice} />
    </div>
  );
}

function Opening() {
  return (
    <p role="status" className="flex items-center gap-2 rounded-xl border border-gray-800 p-6 text-gray-300">
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin motion-reduce:animate-none" />
      Opening the message…
    </p>
  );
}

function ListArea({ inbox, delivery }: { inbox: Inbox; delivery: DeliveryState }) {
  if (inbox.status === 'loading') {
    return (
      <div role="status" aria-label="Loading messages" className="space-y-px overflow-hidden rounded-xl border border-gray-800">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="animate-pulse bg-gray-900/60 px-4 py-4 motion-reduce:animate-none">
            <div className="h-3 w-1/3 rounded bg-gray-800" />
            <div className="mt-2 h-3 w-2/3 rounded bg-gray-800" />
            <div className="mt-2 h-3 w-1/2 rounded bg-gray-800/70" />
          </div>
        ))}
      </div>
    );
  }
  if (inbox.status === 'error') {
    return (
      <div role="alert" className="rounded-xl border border-red-400/40 bg-red-950/30 p-6">
        <p className="flex items-center gap-2 font-semibold text-red-100">
          <AlertTriangle aria-hidden="true" className="size-5" />
          The messages could not be loaded.
        </p>
        <p className="mt-1 text-sm text-red-200">{inbox.error}</p>
        <button type="button" className="btn btn-secondary mt-4" onClick={inbox.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (inbox.items.length === 0) {
    const empty = inbox.query
      ? { title: 'No messages match', text: `Nothing in ${TITLES[inbox.folder].toLowerCase()} contains “${inbox.query}”.` }
      : EMPTY[inbox.folder];
    return (
      <div className="rounded-xl border border-dashed border-gray-800 p-10 text-center">
        <InboxIcon aria-hidden="true" className="mx-auto size-10 text-gray-600" />
        <h2 className="mt-3 text-lg font-semibold text-white">{empty.title}</h2>
        <p className="mx-auto mt-1 max-w-[40ch] text-sm text-gray-400">{empty.text}</p>
      </div>
    );
  }
  return (
    <>
      <MessageList
        items={inbox.items}
        selectedId={inbox.opened?.id ?? null}
        statuses={delivery.statuses}
        onOpen={(id) => void inbox.open(id)}
      />
      {inbox.moreError && (
        <p role="alert" className="field-error">
          {inbox.moreError}
        </p>
      )}
      {inbox.hasMore && (
        <button
          type="button"
          className="btn btn-secondary mt-4 w-full"
          disabled={inbox.loadingMore}
          onClick={() => void inbox.loadMore()}
        >
          {inbox.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
