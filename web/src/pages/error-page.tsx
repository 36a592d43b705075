import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from './error-view';

/**
 * The error boundary of every route: an unknown address (the router's 404) or a page that failed
 * while rendering, shown as the designed error page.
 */
export function ErrorPage() {
  const error = useRouteError();
  return <ErrorView notFound={isRouteErrorResponse(error) && error.status === 404} />;
}
