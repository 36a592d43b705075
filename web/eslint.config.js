import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The names of the folders in `path` (relative to this file), sorted. */
function folders(path) {
  return readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The folders of src/ above the layers: the pages, and the dashboard they show. */
const ABOVE = ['pages', 'dashboard'];
const SOURCE = folders('./src/');
for (const folder of ABOVE) if (!SOURCE.includes(folder)) throw new Error(`eslint.config.js: no src/${folder}/`);

/** Every other folder of src/ is a layer below them (api, auth, components, content, i18n, links, ...). */
const LAYERS = SOURCE.filter((folder) => !ABOVE.includes(folder));

/**
 * The dashboard's features, each folder of src/dashboard but `shared`: each may use
 * dashboard/shared and the layers below, never another feature.
 */
const FEATURES = folders('./src/dashboard/').filter((folder) => folder !== 'shared');

/** What the fetch client and its resources may use besides themselves: the data they carry. */
const API_USES = ['content', 'links'];

/**
 * Imports point one way: pages use dashboard features, features use dashboard/shared, and all of
 * them use the layers below, which never import upward. The zones are built from the folder list,
 * so a new feature or layer is covered by itself.
 */
const ONE_WAY_ZONES = [
  ...FEATURES.map((feature) => ({
    target: `./src/dashboard/${feature}`,
    from: './src/dashboard',
    except: [`./${feature}`, './shared'],
    message: 'A dashboard feature imports no other feature; move what both need to dashboard/shared.',
  })),
  {
    target: './src/dashboard/shared',
    from: './src/dashboard',
    except: ['./shared'],
    message: 'dashboard/shared is used by the features and imports none of them.',
  },
  {
    target: './src/dashboard',
    from: './src/pages',
    message: "The dashboard's features are shown by the pages and import none of them.",
  },
  {
    target: LAYERS.map((folder) => `./src/${folder}`),
    from: ABOVE.map((folder) => `./src/${folder}`),
    message: 'The layers below the pages import no page and no dashboard feature.',
  },
  {
    target: './src/api',
    from: LAYERS.filter((folder) => folder !== 'api' && !API_USES.includes(folder)).map((folder) => `./src/${folder}`),
    message: 'The fetch client and its resources import no interface code: no layer but content and links.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx,js,mjs}', 'e2e/**/*.ts', 'scripts/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these the rules skip every TypeScript file (their defaults know only .js).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: ONE_WAY_ZONES }],
    },
  },
);
