import { ErrorBoundary } from '../components/error-boundary';
import { ErrorView } from './error-view';
import { HomePage } from './home';
import { SiteChrome } from './site-chrome';

/**
 * `/` as it is pre-rendered and hydrated: the home page in the site's chrome, without the router,
 * whose code the landing page does not need (its links to other pages load them afresh). A render
 * error shows the designed error page, as the routes' error boundary does. The router's table
 * renders the same home page when a visitor comes back to `/` from another page of the app.
 */
export function Landing() {
  return (
    <ErrorBoundary fallback={<ErrorView notFound={false} />}>
      <SiteChrome>
        <HomePage />
      </SiteChrome>
    </ErrorBoundary>
  );
}
