/**
 * Route loaders that guard the owner's pages. They are tiny and live in the initial chunk,
 * so the redirect is decided while the page's own chunk is still on its way.
 */
import { redirect, replace, type LoaderFunctionArgs } from 'react-router';
import { getSession, type Owner } from '../api/session';
import { forgetSignedIn, maybeSignedIn } from './hint';

/**
 * Redirects without leaving the guarded page in the history. When the page was opened
 * directly (its URL is already the document's), that entry is replaced; when it was reached
 * by a link, the router has not pushed it yet, so a plain redirect pushes only the target and
 * Back returns to the page the link was on.
 */
function away(request: Request, to: string): Response {
  const opened = typeof window !== 'undefined' && new URL(request.url).pathname === window.location.pathname;
  return opened ? replace(to) : redirect(to);
}

/** `/dashboard`: a visitor goes to `/login`. */
export async function requireOwner({ request }: LoaderFunctionArgs): Promise<Owner> {
  const owner = maybeSignedIn() ? await getSession(request.signal) : null;
  if (!owner) {
    forgetSignedIn();
    throw away(request, '/login');
  }
  return owner;
}

/** `/login`: a signed-in owner goes straight to `/dashboard`. */
export async function redirectSignedIn({ request }: LoaderFunctionArgs): Promise<null> {
  if (!maybeSignedIn()) return null;
  const owner = await getSession(request.signal).catch(() => null);
  if (owner) throw away(request, '/dashboard');
  forgetSignedIn();
  return null;
}
