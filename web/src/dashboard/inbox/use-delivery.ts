import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  deliveryHealth,
  deliveryStatuses,
  notification,
  plainError,
  retryNotification,
  sendTestEmail,
  type DeliveryHealth,
  type MessageDelivery,
} from '../../api/notifications';

/** How often the dashboard looks again at the notifications it shows. */
const POLL_MS = 3_000;
/** How often, and how long, a test e-mail's result is awaited. */
const TEST_POLL_MS = 500;
const TEST_GIVE_UP_MS = 60_000;

export type TestEmail =
  | { state: 'sending' }
  | { state: 'sent' }
  | { state: 'failed'; error: string };

/**
 * The notifications of the messages on screen (`ids`), whether they keep failing, the test
 * e-mail's progress and "Retry now". Looked at again every few seconds while the page is shown.
 */
export function useDelivery(ids: number[]) {
  const [statuses, setStatuses] = useState<Map<number, MessageDelivery>>(new Map());
  const [health, setHealth] = useState<DeliveryHealth | null>(null);
  const [test, setTest] = useState<TestEmail | null>(null);
  const [tick, setTick] = useState(0);
  const idsKey = ids.join(',');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const refresh = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    const load = async () => {
      try {
        const [page, nextHealth] = await Promise.all([
          idsKey ? deliveryStatuses(idsKey.split(',').map(Number), controller.signal) : Promise.resolve({ messages: [] }),
          deliveryHealth(controller.signal),
        ]);
        setStatuses(new Map(page.messages.map((m) => [m.messageId, m])));
        setHealth(nextHealth);
      } catch {
        // Keep showing what was last known; the next look may do better.
      }
    };
    void load();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [idsKey, tick]);

  const retry = useCallback(
    async (id: number): Promise<string | null> => {
      try {
        await retryNotification(id);
        refresh();
        return null;
      } catch (cause) {
        return cause instanceof ApiError ? cause.message : 'The retry could not be asked for.';
      }
    },
    [refresh],
  );

  const sendTest = useCallback(async () => {
    setTest({ state: 'sending' });
    try {
      const queued = await sendTestEmail();
      const started = Date.now();
      for (;;) {
        await new Promise((resolve) => window.setTimeout(resolve, TEST_POLL_MS));
        if (!mounted.current) return;
        const row = await notification(queued.id);
        if (row.status === 'sent') {
          setTest({ state: 'sent' });
          return;
        }
        if (row.status === 'failed') {
          setTest({ state: 'failed', error: plainError(row.lastError) });
          return;
        }
        if (Date.now() - started > TEST_GIVE_UP_MS) {
          setTest({ state: 'failed', error: 'No answer from the mail server after a minute.' });
          return;
        }
      }
    } catch (cause) {
      if (mounted.current) {
        setTest({ state: 'failed', error: cause instanceof ApiError ? cause.message : 'The test e-mail could not be asked for.' });
      }
    }
  }, []);

  const dismissTest = useCallback(() => setTest(null), []);

  return { statuses, health, test, sendTest, dismissTest, retry, refresh };
}

export type DeliveryState = ReturnType<typeof useDelivery>;
