/**
 * What the build needs to know besides the page itself (which `render-entry.tsx` draws): the
 * route list for the server, and the default document's owner and photo for the page head, the
 * link preview image and the web app manifest. Bundled by Vite's SSR build for the pre-render
 * script; never shipped to the browser.
 */
import { defaultDocument } from './content/document';
import { imageFor } from './content/media';
import { routes } from './routes';
import { routePaths } from './route-paths';

/** The URL patterns of the app's routes, which the server answers with 200 (any other page path is a 404). */
export const paths: string[] = routePaths(routes);

/** The owner's photo when the content has one: `src`, `srcSet`, `width`, `height`, `alt`. */
export const photo = imageFor(defaultDocument, defaultDocument.profile.photo);

/** The owner's data as the head, the preview image and the manifest read it. */
export const profile = {
  name: defaultDocument.profile.name,
  role: defaultDocument.profile.role,
  summary: defaultDocument.profile.summary,
  email: defaultDocument.contact.email,
  links: Object.fromEntries(defaultDocument.social.map((link) => [link.id, link.url])),
};
