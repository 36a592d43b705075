import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The dashboard's features: each may use dashboard/shared and the layers below, never another feature. */
const FEATURES = ['inbox', 'insights', 'page-editor', 'account'];

/**
 * Imports point one way: pages use dashboard features, features use dashboard/shared, and all of
 * them use the layers below (api, content, components, ...), which never import upward.
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
    target: ['./src/api', './src/auth', './src/components', './src/contact', './src/content', './src/insights', './src/sections'],
    from: ['./src/dashboard', './src/pages'],
    message: 'The layers below the pages import no page and no dashboard feature.',
  },
  {
    target: './src/api',
    from: ['./src/auth', './src/components', './src/contact', './src/sections'],
    message: 'The fetch client and its resources import no interface code.',
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
