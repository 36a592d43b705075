import { useState } from 'react';
import { ApiError } from '../../api/client';
import { Cancelled } from './reauth';

/**
 * One part of the security dialog's busy state and its last error: `run(step)` runs a step,
 * sends the owner to the login page when the session is gone, and keeps quiet when the owner
 * cancelled a prompt.
 */
export function useTask(onUnauthorized: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(step: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await step();
      return true;
    } catch (cause) {
      if (cause instanceof ApiError && cause.status === 401) onUnauthorized();
      else if (!(cause instanceof Cancelled)) setError(cause instanceof Error ? cause.message : 'Something went wrong. Please try again.');
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
