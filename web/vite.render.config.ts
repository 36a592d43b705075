/**
 * The render bundle: `src/render-entry.tsx` and everything the landing page draws, as one
 * self-contained script (no imports, and no Node or browser API: the
 * landing renders with ECMAScript alone, plus `console` from the host) that QuickJS in the server and node:vm in the build run.
 * Written to dist/.render/, which the server embeds for itself and never serves.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vite';
import base from './vite.config.ts';

const below = fileURLToPath(new URL('./src/pages/below-the-fold.static.ts', import.meta.url));
// `react-dom/server.browser` also loads the streaming renderer, which needs TextEncoder and
// MessageChannel at load; `renderToString` is the legacy build alone, which needs no host API.
const reactDom = dirname(createRequire(import.meta.url).resolve('react-dom/package.json'));
const legacyServer = join(reactDom, 'cjs/react-dom-server-legacy.browser.production.js');

export default defineConfig((env) =>
  mergeConfig(base(env), {
    resolve: {
      // The landing's lazily hydrated sections, imported statically: a synchronous render draws them.
      alias: [
        { find: './below-the-fold', replacement: below },
        { find: /^react-dom\/server\.browser$/, replacement: legacyServer },
      ],
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    // The site's public files belong to the client build.
    publicDir: false,
    ssr: { noExternal: true, target: 'webworker' },
    build: {
      ssr: 'src/render-entry.tsx',
      outDir: 'dist/.render',
      emptyOutDir: true,
      manifest: false,
      ssrManifest: false,
      // The same asset URLs as the client build, never inlined.
      assetsInlineLimit: 0,
      minify: true,
      // One script: the client build's chunk groups (vite.config.ts) do not apply.
      rolldownOptions: { output: { format: 'iife', entryFileNames: 'render.js', codeSplitting: false } },
    },
  }),
);
