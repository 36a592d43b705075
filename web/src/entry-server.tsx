/**
 * The build-time renderer: the pre-render script imports this module (bundled by Vite's SSR
 * build) to render `/` into `dist/index.html`, to read the owner's data for the page head, the
 * link preview image and the web app manifest, and to list the routes for the server. Never
 * shipped to the browser.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Landing } from './pages/landing';
import { routes } from './routes';
import { routePaths } from './route-paths';

export { profile } from './content/profile';

/** The URL patterns of the app's routes, which the server answers with 200 (any other page path is a 404). */
export const paths: string[] = routePaths(routes);

/** The owner's photo when the content has one: `src`, `srcSet`, `width`, `height`, `alt`. */
interface Photo {
  src: string;
  srcSet?: string;
  alt?: string;
}
const media = import.meta.glob<{ photo?: Photo }>('./content/media.ts', { eager: true });
export const photo: Photo | undefined = Object.values(media)[0]?.photo;

/**
 * The HTML of `/`, every Suspense boundary resolved. The tree is the one `hydrate-landing.tsx` hydrates
 * (StrictMode, then the landing page, without the router), so `useId` values and markup match.
 */
export async function render(url: string): Promise<string> {
  if (url !== '/') throw new Error(`only / is pre-rendered, not ${url}`);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Landing />
    </StrictMode>,
    // Never outline a large Suspense boundary into a hidden segment and an inline script that
    // reveals it: the page must be whole HTML, and the CSP allows no inline script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
