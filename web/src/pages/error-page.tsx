import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useWritingTeaser } from '../content/writing-teaser';
import { ErrorView } from './error-view';

/**
 * The error boundary of every route: an unknown address (the router's 404) or a page that failed
 * while rendering, shown as the designed error page. The server's error page carries its
 * language's page data, with the home page's latest posts when it shows them (given by `app.tsx`):
 * its header then has the Writing item, as the home page's. Read here, in the app's chunk, rather
 * than in `ErrorView`, which the landing page bundles for its own error boundary.
 */
export function ErrorPage() {
  const error = useRouteError();
  const writing = useWritingTeaser()?.writing;
  return <ErrorView notFound={isRouteErrorResponse(error) && error.status === 404} writing={writing} />;
}
