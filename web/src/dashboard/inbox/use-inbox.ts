import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  deleteMessage,
  listMessages,
  updateMessage,
  type Folder,
  type Message,
  type MessageChange,
  type MessageSummary,
} from '../../api/inbox';
import { readConversation, type Conversation } from '../../api/conversation';

interface Page {
  /** Which folder, search and reload the page answers. */
  key: string;
  items: MessageSummary[];
  nextCursor: string | null;
}

export interface Notice {
  id: number;
  text: string;
  tone: 'info' | 'error';
  undo?: () => void;
}

type Opened =
  | { id: number; status: 'loading' }
  | { id: number; status: 'ready'; message: Message; conversation: Conversation }
  | { id: number; status: 'error'; error: string };

function errorText(cause: unknown): string {
  return cause instanceof ApiError ? cause.message : 'Something went wrong. Please try again.';
}

/**
 * The dashboard's state: one folder's messages (searched, paged), the opened message, the
 * unread count and what the owner can do to a message. (A session found gone is the dashboard
 * shell's to handle: the API client tells it.)
 */
export function useInbox() {
  const [folder, setFolderState] = useState<Folder>('inbox');
  const [query, setQuery] = useState('');
  const [reloads, setReloads] = useState(0);
  const key = `${folder}\n${query}\n${reloads}`;
  const [page, setPage] = useState<Page | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: string } | null>(null);
  const [unread, setUnread] = useState<number | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);


  const notify = useCallback((text: string, tone: Notice['tone'] = 'info', undo?: () => void) => {
    setNotice({ id: Date.now(), text, tone, undo });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    listMessages({ folder, q: query }, controller.signal).then(
      (result) => {
        setPage({ key, items: result.messages, nextCursor: result.nextCursor });
        setUnread(result.unread);
      },
      (cause: unknown) => {
        if (controller.signal.aborted) return;
        setFailure({ key, error: errorText(cause) });
      },
    );
    return () => controller.abort();
  }, [folder, query, key]);

  const status: 'loading' | 'ready' | 'error' =
    page?.key === key ? 'ready' : failure?.key === key ? 'error' : 'loading';

  const refreshUnread = useCallback(() => {
    listMessages({ folder: 'inbox', limit: 1 }).then(
      (result) => setUnread(result.unread),
      () => {},
    );
  }, []);

  const reload = useCallback(() => setReloads((n) => n + 1), []);

  const setFolder = useCallback((next: Folder) => {
    setFolderState(next);
    setOpened(null);
  }, []);

  const search = useCallback((text: string) => {
    setQuery(text.trim());
    setOpened(null);
  }, []);

  const loadMore = useCallback(async () => {
    if (!page?.nextCursor || loadingMore) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const result = await listMessages({ folder, q: query, cursor: page.nextCursor });
      setPage((current) =>
        current && current.key === page.key
          ? { ...current, items: [...current.items, ...result.messages], nextCursor: result.nextCursor }
          : current,
      );
      setUnread(result.unread);
    } catch (cause) {
      setMoreError(errorText(cause));
    } finally {
      setLoadingMore(false);
    }
  }, [page, loadingMore, folder, query]);

  const patchItem = useCallback((id: number, change: Partial<MessageSummary>) => {
    setPage((current) =>
      current && { ...current, items: current.items.map((m) => (m.id === id ? { ...m, ...change } : m)) },
    );
  }, []);

  const removeItem = useCallback((id: number) => {
    setPage((current) => current && { ...current, items: current.items.filter((m) => m.id !== id) });
  }, []);

  const open = useCallback(
    async (id: number) => {
      setOpened({ id, status: 'loading' });
      try {
        // The message with its replies and answers, in one read.
        const conversation = await readConversation(id);
        const { message } = conversation;
        setOpened((current) => (current?.id === id ? { id, status: 'ready', message, conversation } : current));
        patchItem(id, { isRead: true });
        refreshUnread();
      } catch (cause) {
        const error = errorText(cause);
        setOpened((current) => (current?.id === id ? { id, status: 'error', error } : current));
      }
    },
    [patchItem, refreshUnread],
  );

  const close = useCallback(() => setOpened(null), []);

  /** Applies a change; `leaves` says the message leaves this folder (and can be brought back). */
  const change = useCallback(
    async (message: Message, patch: MessageChange, done: string, undoPatch?: MessageChange) => {
      try {
        await updateMessage(message.id, patch);
      } catch (cause) {
        notify(errorText(cause), 'error');
        return;
      }
      setOpened(null);
      if (typeof patch.isRead !== 'boolean') removeItem(message.id);
      else patchItem(message.id, { isRead: patch.isRead });
      refreshUnread();
      const undo = undoPatch
        ? () => {
            updateMessage(message.id, undoPatch).then(
              () => {
                notify('Undone.');
                reload();
              },
              (cause: unknown) => notify(errorText(cause), 'error'),
            );
          }
        : undefined;
      notify(done, 'info', undo);
    },
    [notify, patchItem, refreshUnread, reload, removeItem],
  );

  const markUnread = (m: Message) => change(m, { isRead: false }, 'Marked as unread.');
  const markSpam = (m: Message) => change(m, { isSpam: true }, 'Moved to spam.', { isSpam: false });
  const markNotSpam = (m: Message) => change(m, { isSpam: false }, 'Moved back to the inbox.', { isSpam: true });
  const trash = (m: Message) => change(m, { deleted: true }, 'Moved to the trash.', { deleted: false });
  const restore = (m: Message) => change(m, { deleted: false }, 'Restored.', { deleted: true });

  const deleteForever = useCallback(
    async (message: Message) => {
      try {
        await deleteMessage(message.id);
      } catch (cause) {
        notify(errorText(cause), 'error');
        return;
      }
      setOpened(null);
      removeItem(message.id);
      notify('Deleted for good.');
    },
    [notify, removeItem],
  );

  return {
    folder,
    setFolder,
    query,
    search,
    status,
    error: failure?.key === key ? failure.error : null,
    items: page?.key === key ? page.items : [],
    hasMore: Boolean(page?.key === key && page.nextCursor),
    loadMore,
    loadingMore,
    moreError,
    unread,
    reload,
    opened,
    open,
    close,
    markUnread,
    markSpam,
    markNotSpam,
    trash,
    restore,
    deleteForever,
    notice,
    dismissNotice: () => setNotice(null),
  };
}

export type Inbox = ReturnType<typeof useInbox>;
