import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { readConversation, sendReply, type Conversation } from '../../api/conversation';
import { retryNotification } from '../../api/notifications';
import { problemText, sentence } from '../../api/problems';
import { awaitsDelivery } from './conversation-text';

/** How often the conversation is looked at again while a reply is on its way. */
const POLL_MS = 3_000;

/** What became of a reply the owner sent: queued, or why not (`field`: the problem with the text). */
export type SendOutcome = { ok: true } | { ok: false; field: string | null; error: string | null };

/**
 * The opened message's conversation, from the one read when it opened: looked at again every few
 * seconds while a reply is pending, sending or retrying, and whenever the page comes back into
 * view (so an answer that arrived shows up); sending a reply and "Retry now".
 */
export function useConversation(initial: Conversation) {
  const id = initial.message.id;
  const [conversation, setConversation] = useState(initial);
  // Each change counts; a read begun before the latest change is dropped (it would hide a reply
  // just sent until the next look).
  const generation = useRef(0);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const refresh = useCallback(async () => {
    const begun = ++generation.current;
    try {
      const next = await readConversation(id);
      if (live.current && begun === generation.current) setConversation(next);
    } catch {
      // Keep showing what was last known; the next look may do better.
    }
  }, [id]);

  const waiting = awaitsDelivery(conversation.items);
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [waiting, refresh]);

  useEffect(() => {
    const onShown = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    window.addEventListener('focus', onShown);
    document.addEventListener('visibilitychange', onShown);
    return () => {
      window.removeEventListener('focus', onShown);
      document.removeEventListener('visibilitychange', onShown);
    };
  }, [refresh]);

  const send = useCallback(
    async (body: string): Promise<SendOutcome> => {
      try {
        const item = await sendReply(id, body);
        generation.current += 1;
        if (live.current) setConversation((now) => ({ ...now, items: [...now.items, item] }));
        return { ok: true };
      } catch (cause) {
        const field = cause instanceof ApiError ? cause.fields.body : undefined;
        if (field !== undefined) return { ok: false, field: sentence('body', field, 'your reply'), error: null };
        return { ok: false, field: null, error: problemText(cause) };
      }
    },
    [id],
  );

  const retry = useCallback(
    async (deliveryId: number): Promise<string | null> => {
      try {
        await retryNotification(deliveryId);
        void refresh();
        return null;
      } catch (cause) {
        void refresh();
        return cause instanceof ApiError ? cause.message : 'The retry could not be asked for.';
      }
    },
    [refresh],
  );

  return { conversation, send, retry };
}
