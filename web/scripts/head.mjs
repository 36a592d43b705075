// The page head generated from the owner's profile: title, description, canonical link, Open Graph
// and Twitter card tags, icons and the manifest link; and a JSON-LD Person for the body. Absolute URLs start with
// the placeholder that the server replaces with the public URL at start-up.

/** Must match `PUBLIC_URL_PLACEHOLDER` in server/src/site.rs. */
export const PUBLIC_URL = 'https://portfolio.invalid';
export const PREVIEW = { path: '/og-image.png', width: 1200, height: 630 };

export const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export function title(profile) {
  return `${profile.name} · ${profile.role}`;
}

/**
 * The JSON-LD block: data for search engines, never executed (allowed under the CSP). A schema.org
 * `ProfilePage` whose `mainEntity` is the owner, as the server writes it (content/head.rs; a page
 * never published has no `dateModified`).
 */
export function profilePageJsonLd(profile, photoPath) {
  const page = {
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    url: `${PUBLIC_URL}/`,
    inLanguage: 'en',
    mainEntity: {
      '@type': 'Person',
      name: profile.name,
      jobTitle: profile.role,
      description: profile.summary,
      url: `${PUBLIC_URL}/`,
      email: `mailto:${profile.email}`,
      ...(photoPath ? { image: `${PUBLIC_URL}${photoPath}` } : {}),
      sameAs: Object.values(profile.links),
    },
  };
  // `<` escaped so no value can close the script element.
  return JSON.stringify(page).replace(/</g, '\\u003c');
}

export function headTags(profile) {
  const t = escapeHtml(title(profile));
  const description = escapeHtml(profile.summary);
  const image = `${PUBLIC_URL}${PREVIEW.path}`;
  const imageAlt = escapeHtml(`${profile.name}, ${profile.role}`);
  return [
    `<title>${t}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta name="author" content="${escapeHtml(profile.name)}" />`,
    // The page's URL, which is also its owner's h-card's (`u-url`; the h-card is <html>).
    `<link rel="canonical" href="${PUBLIC_URL}/" class="u-url" />`,
    `<meta property="og:type" content="profile" />`,
    `<meta property="og:site_name" content="${escapeHtml(profile.name)}" />`,
    `<meta property="og:title" content="${t}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${PUBLIC_URL}/" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:type" content="image/png" />`,
    `<meta property="og:image:width" content="${PREVIEW.width}" />`,
    `<meta property="og:image:height" content="${PREVIEW.height}" />`,
    `<meta property="og:image:alt" content="${imageAlt}" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta property="profile:first_name" content="${escapeHtml(profile.name.split(' ')[0])}" />`,
    `<meta property="profile:last_name" content="${escapeHtml(profile.name.split(' ').slice(1).join(' '))}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${t}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
    `<meta name="twitter:image:alt" content="${imageAlt}" />`,
    `<link rel="icon" href="/favicon.svg" type="image/svg+xml" />`,
    `<link rel="icon" href="/icon-32.png" sizes="32x32" type="image/png" />`,
    `<link rel="apple-touch-icon" href="/apple-touch-icon.png" />`,
    `<link rel="manifest" href="/manifest.webmanifest" />`,
  ].join('\n    ');
}

/** Placed at the end of the body, so the entry script stays the first asset the page names. */
export function jsonLdTag(profile, photoPath) {
  return `<script type="application/ld+json">${profilePageJsonLd(profile, photoPath)}</script>`;
}
