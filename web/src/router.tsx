import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

/** The data router, created once at module level. */
export const router = createBrowserRouter(routes);
