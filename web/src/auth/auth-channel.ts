/**
 * Tells the other open tabs when the owner signs in or out, so every tab follows at once.
 * BroadcastChannel reaches the tabs of this browser; tabs also re-check the session when
 * they regain focus, which covers sign-outs from another browser and expired sessions.
 */

export type AuthEvent = 'signed-in' | 'signed-out';

const NAME = 'portfolio-auth';

export function announce(event: AuthEvent): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(NAME);
  channel.postMessage(event);
  channel.close();
}

/** Calls `listener` for each event another tab announces; returns the unsubscribe function. */
export function listen(listener: (event: AuthEvent) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(NAME);
  channel.onmessage = (message: MessageEvent<unknown>) => {
    if (message.data === 'signed-in' || message.data === 'signed-out') listener(message.data);
  };
  return () => channel.close();
}
