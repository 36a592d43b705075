/// <reference types="vitest/config" />
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { stringTableParts } from './scripts/string-table-parts.mjs';

/**
 * React Router 7's package exports point every condition at its development build, whose
 * warnings and "Hey developer" error screen would ship to visitors (upstream issues 12532 and
 * 14102). Builds (the client and the pre-render bundle) use its production build instead; the
 * dev server and the unit tests keep the development build and its warnings.
 */
const reactRouter = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const reactRouterProduction = [
  { find: /^react-router$/, replacement: join(reactRouter, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(reactRouter, 'dist/production/dom-export.mjs') },
];

export default defineConfig(({ command }) => ({
  plugins: [stringTableParts(), react(), tailwindcss()],
  resolve: {
    alias: command === 'build' ? reactRouterProduction : [],
  },
  // Bundled into the pre-render bundle, so the production build above is the one that runs there too.
  ssr: { noExternal: ['react-router'] },
  build: {
    target: 'es2022',
    manifest: true,
    // Every browser the site supports follows <link rel="modulepreload"> (Safari since 17), and
    // without it a chunk still loads through its import: the entry carries no polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      // The placeholder's case study pictures, which only the server's pages name (it maps their
      // sources to these files' hashed names, media.json): an entry of their own, which no page
      // loads, so that the build emits them without a map of them in any page's script.
      input: { index: 'index.html', 'case-study-pictures': 'src/content/case-study-media.ts' },
      output: {
        codeSplitting: {
          groups: [
            {
              // Small modules the landing shares with the dashboard (the content provider, the
              // icon, the bundled images' URLs) and with a case study's page (the cards' links
              // to them, the error boundary, the profile links, the cursor dot), and the latest
              // posts its Writing section and header share (writing-teaser), and the hydration
              // that the landing, a case study and a post share (hydrate-in-slices): kept with the
              // landing's code rather than in tiny chunks of their own, whose wrappers cost more
              // than their code (measured: `/` 80,143 bytes without the last three, 79,790 with).
              name: 'landing-shared',
              test: /src[\\/](hydrate-in-slices|content[\\/](context|media|case-study-links|writing-teaser)|components[\\/](icon|error-boundary|social-links|cursor-dot))\.tsx?$|node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
}));
