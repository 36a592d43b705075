/**
 * A session found gone, as the dashboard sees it: the API client calls `sessionListeners` at each
 * 401 that says so; the dashboard's shell alone listens (`whenSessionEnds`) and goes to the login
 * page, and every other part only keeps quiet about the failed request (`sessionEnded`).
 */
import { ApiError, sessionListeners } from '../../api/client';

/** True for the error of a request made without a valid session (it expired or was ended). */
export function sessionEnded(cause: unknown): boolean {
  return cause instanceof ApiError && cause.code === 'unauthorized';
}

/** Calls `listener` each time the session turns out to be gone; returns the unsubscribe function. */
export function whenSessionEnds(listener: () => void): () => void {
  sessionListeners.add(listener);
  return () => {
    sessionListeners.delete(listener);
  };
}

/** Tells the listener that this browser's session is gone without a 401: the owner ended it. */
export function endOfSession(): void {
  sessionListeners.forEach((listener) => listener());
}
