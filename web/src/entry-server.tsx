/**
 * The build-time renderer: the pre-render script imports this module (bundled by Vite's SSR
 * build) to render `/` into `dist/index.html`, to read the owner's data for the page head, the
 * link preview image and the web app manifest, and to list the routes for the server. Never
 * shipped to the browser.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { ContentProvider } from './content/context';
import { defaultDocument } from './content/document';
import { imageFor } from './content/media';
import { Landing } from './pages/landing';
import { routes } from './routes';
import { routePaths } from './route-paths';


/** The URL patterns of the app's routes, which the server answers with 200 (any other page path is a 404). */
export const paths: string[] = routePaths(routes);

/** The owner's photo when the content has one: `src`, `srcSet`, `width`, `height`, `alt`. */
interface Photo {
  src: string;
  srcSet?: string;
  alt?: string;
}
export const photo: Photo | undefined = imageFor(defaultDocument, defaultDocument.profile.photo);

/** The owner's data as the head, the preview image and the manifest read it. */
export const profile = {
  name: defaultDocument.profile.name,
  role: defaultDocument.profile.role,
  summary: defaultDocument.profile.summary,
  email: defaultDocument.contact.email,
  links: Object.fromEntries(defaultDocument.social.map((link) => [link.id, link.url])),
};

/**
 * The HTML of `/`, every Suspense boundary resolved. The tree is the one `hydrate-landing.tsx` hydrates
 * (StrictMode, then the landing page, without the router), so `useId` values and markup match.
 */
export async function render(url: string): Promise<string> {
  if (url !== '/') throw new Error(`only / is pre-rendered, not ${url}`);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <ContentProvider document={defaultDocument}>
        <Landing />
      </ContentProvider>
    </StrictMode>,
    // Never outline a large Suspense boundary into a hidden segment and an inline script that
    // reveals it: the page must be whole HTML, and the CSP allows no inline script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
