import { useState } from 'react';
import { problemText } from '../../api/problems';
import { sessionEnded } from '../shared/session';
import { Cancelled } from './reauth';

/**
 * One part of the security dialog's busy state and its last error: `run(step)` runs a step, and
 * keeps quiet when the session is gone (the dashboard's shell goes to the login page) or the owner
 * cancelled a prompt.
 */
export function useTask() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(step: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await step();
      return true;
    } catch (cause) {
      if (!sessionEnded(cause) && !(cause instanceof Cancelled)) setError(problemText(cause));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
