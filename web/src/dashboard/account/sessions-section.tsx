import { useEffect, useState } from 'react';
import { endSession, listSessions, type SessionInfo } from '../../api/account';
import { endOfSession } from '../shared/session';
import { fullDate } from '../shared/format';
import { SectionAlert } from './security-parts';
import { useTask } from './task';

const METHODS: Record<SessionInfo['method'], string> = {
  password: 'with the password',
  'password+code': 'with the password and a code',
  passkey: 'with a passkey',
};

/** The signed-in browsers, each with its own "Sign out". */
export function SessionsSection() {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const task = useTask();

  useEffect(() => {
    void task.run(async () => setSessions(await listSessions()));
    // Loaded once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function signOutOne(session: SessionInfo) {
    await task.run(async () => {
      await endSession(session.id);
      // This browser's own session: it is gone as surely as after a 401.
      if (session.current) endOfSession();
      else setSessions((list) => list?.filter((other) => other.id !== session.id) ?? null);
    });
  }

  return (
    <section aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="text-base font-semibold text-white">
        Signed-in browsers
      </h3>
      <ul className="mt-3 space-y-2" aria-busy={sessions === null}>
        {/* This device first; the others by their sign-in, the time telling alike browsers apart. */}
        {sessions?.slice().sort((a, b) => Number(b.current) - Number(a.current)).map((session) => {
          const name = `${session.browser} on ${session.device === 'other' ? 'another device' : `a ${session.device}`}`;
          return (
            <li key={session.id} className="flex items-center gap-3 rounded-lg border border-gray-800 px-3 py-2">
              <div className="min-w-0 flex-1 text-sm">
                <p className="text-gray-100">
                  {name}
                  {session.current && <span className="ml-2 rounded bg-blue-950 px-1.5 py-0.5 text-xs text-blue-200">This device</span>}
                </p>
                <p className="text-gray-400">
                  Signed in {fullDate(session.signedInAt)} {METHODS[session.method]}; last active {fullDate(session.lastActiveAt)}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-ghost px-3 text-sm"
                disabled={task.busy}
                aria-label={`Sign out ${name}${session.current ? ' (this device)' : ''}, signed in ${fullDate(session.signedInAt)}`}
                onClick={() => void signOutOne(session)}
              >
                Sign out
              </button>
            </li>
          );
        })}
      </ul>
      <SectionAlert error={task.error} />
    </section>
  );
}
