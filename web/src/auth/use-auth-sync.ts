import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { getSession } from '../api/session';
import { listen } from './auth-channel';
import { forgetSignedIn, maybeSignedIn } from './hint';

/**
 * Keeps a page in step with the session: on the dashboard (`signedIn`), a sign-out in
 * another tab, or a session found gone when the tab regains focus, leads to `/login`; on the
 * login page, a sign-in in another tab leads to `/dashboard`.
 */
export function useAuthSync(signedIn: boolean): void {
  const navigate = useNavigate();
  useEffect(() => {
    // A session check that answers after this page has gone (the sign-in went on by itself, say)
    // must not navigate again: it would undo whatever the next page has done since.
    let active = true;
    const go = () => {
      if (active) void navigate(signedIn ? '/login' : '/dashboard', { replace: true });
    };
    const stopListening = listen((event) => {
      if (event === (signedIn ? 'signed-out' : 'signed-in')) go();
    });
    const recheck = () => {
      if (document.visibilityState !== 'visible') return;
      if (!maybeSignedIn()) {
        if (signedIn) go();
        return;
      }
      getSession()
        .then((owner) => {
          if (!owner) forgetSignedIn();
          if (Boolean(owner) !== signedIn) go();
        })
        .catch(() => {});
    };
    window.addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      active = false;
      stopListening();
      window.removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [navigate, signedIn]);
}
