import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { whenSessionEnds } from '../dashboard/shared/session';
import { signOut, signOutEverywhere } from '../api/account';
import type { Owner } from '../api/session';
import { announce } from '../auth/auth-channel';
import { forgetSignedIn } from '../auth/hint';
import { useAuthSync } from '../auth/use-auth-sync';
import { AccountMenu } from '../dashboard/account/account-menu';
import { DashboardTabs, PANEL_ID, tabId, type DashboardView } from '../dashboard/shared/dashboard-tabs';
import { InboxView } from '../dashboard/inbox/inbox-view';
import { FirstDay } from '../dashboard/first-day/first-day';
import { InsightsView } from '../dashboard/insights/insights-view';
import { ApplicationsView } from '../dashboard/applications/applications-view';
import { useInbox } from '../dashboard/inbox/use-inbox';
import { useDelivery } from '../dashboard/inbox/use-delivery';
import { throwIfTestAsks } from '../components/test-render-error';

// The Page editor (and the document's compiled schema) is a chunk of its own, fetched when its tab
// opens; so is the Writing view (the posts and their editor).
const PageEditor = lazy(() => import('../dashboard/page-editor/page-editor').then((m) => ({ default: m.PageEditor })));
const WritingView = lazy(() => import('../dashboard/writing/writing-view'));

const VIEWS: readonly DashboardView[] = ['applications', 'insights', 'writing', 'page'];

// In the dashboard's chunk, so that visitors never download it.
export { DashboardError } from './dashboard-error';

/** The owner's private dashboard, loaded lazily in its own chunk: the inbox of contact messages, the application links, the visitor insights and the page's editor. */
export function DashboardPage() {
  throwIfTestAsks('dashboard');
  const owner = useLoaderData() as Owner;
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const [params, setParams] = useSearchParams();
  const asked = params.get('view');
  const view = VIEWS.find((v) => v === asked) ?? 'inbox';
  // A link may open a place of the account menu (the first-day checklist's): `?account=security`.
  const account = params.get('account');
  const accountOpened = useCallback(
    () =>
      setParams(
        (now) => {
          now.delete('account');
          return now;
        },
        { replace: true },
      ),
    [setParams],
  );
  const select = useCallback(
    (next: DashboardView) => setParams(next === 'inbox' ? {} : { view: next }, { replace: true }),
    [setParams],
  );
  useAuthSync(true);

  const toLogin = useCallback(() => {
    void navigate('/login', { replace: true });
  }, [navigate]);
  // The one place a session found gone is handled: whichever part's request met the 401, the
  // signed-in hint is dropped (so the login page does not ask again) and the owner signs in anew.
  useEffect(
    () =>
      whenSessionEnds(() => {
        forgetSignedIn();
        toLogin();
      }),
    [toLogin],
  );
  const inbox = useInbox();
  const ids = useMemo(() => inbox.items.map((m) => m.id), [inbox.items]);
  const delivery = useDelivery(ids);

  async function leave(action: () => Promise<void>) {
    setSigningOut(true);
    try {
      await action();
    } catch {
      // Signed out on the server or not, this page leaves; the login page re-checks.
    }
    announce('signed-out');
    toLogin();
  }

  return (
    <div className="min-h-dvh bg-gray-950">
      <header className="sticky top-0 z-20 border-b border-gray-800 bg-gray-950/90 backdrop-blur">
        <div className="container-page flex min-h-16 flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 md:flex-nowrap md:py-0">
          <Link to="/" className="rounded-md font-bold tracking-[0.2em] text-white hover:text-blue-300">
            PORTFOLIO
          </Link>
          <DashboardTabs view={view} onSelect={select} />
          <AccountMenu
            email={owner.email}
            busy={signingOut}
            onSignOut={() => void leave(signOut)}
            onSignOutEverywhere={() => void leave(signOutEverywhere)}
            onSendTestEmail={() => void delivery.sendTest()}
            ask={account === 'security' || account === 'notifications' ? account : null}
            onAsked={accountOpened}
          />
        </div>
      </header>
      <main>
        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(view)}>
          {view === 'applications' ? (
            <ApplicationsView />
          ) : view === 'insights' ? (
            <InsightsView />
          ) : view === 'page' || view === 'writing' ? (
            <Suspense fallback={view === 'page' ? <Loading title="Page" what="the editor" /> : <Loading title="Writing" what="the posts" />}>{view === 'page' ? <PageEditor /> : <WritingView />}</Suspense>
          ) : (
            <>
              <FirstDay />
              <InboxView inbox={inbox} delivery={delivery} />
            </>
          )}
        </div>
      </main>
    </div>
  );
}

/** A lazily loaded view's frame while its chunk arrives, so that its heading stays where it is once it loads. */
function Loading({ title, what }: { title: string; what: string }) {
  return (
    <div className="container-page py-6 md:py-8">
      <div className="flex min-h-11 items-center">
        <h1 className="text-heading font-bold text-white">{title}</h1>
      </div>
      <p role="status" className="mt-4 text-gray-400">
        Loading {what}…
      </p>
    </div>
  );
}
