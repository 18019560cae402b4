// ESLint (flat config): `npm run lint`, also a step of `npm test`.
// typescript-eslint's recommended rules without type information (fast), React's hook rules, and
// the import boundaries between layers (README, "Layers"; the tsconfig.<layer>.json files keep
// each layer's globals). scripts/eslint-boundaries.test.ts proves each boundary fires.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Relative imports into another folder of src/ (any depth of ../). */
const into = (...folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

const core = [
  {
    regex: into('engine', 'app', 'share', 'export', 'pwa', 'bench'),
    message: 'src/core is the pure core: it may not import the engine, the page or the share code.',
  },
  { regex: '^(\\.\\./)+cli(/|$)', message: 'src/core may not import the CLIs.' },
  { regex: '^(react|react-dom|zustand|idb)(/|$)', message: 'src/core is pure: no React, zustand or IndexedDB.' },
  { regex: '^node:', message: 'src/core runs in the browser too: no Node modules (Node code goes in cli/ or src/engine/node-*.ts).' },
];

const noReact = { regex: '^(react|react-dom)(/|$)', message: 'No React here: React is the page (src/app).' };

export default defineConfig([
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  // What .gitignore ignores (build output, reports, scratch folders).
  globalIgnores(['dist/', 'test-results/', 'playwright-report/', '.vite/', '.tsbuild/', 'out/', 'results/tmp/', 'tmp/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The .mjs scripts run in Node (TypeScript files get their globals from their tsconfig).
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    rules: {
      // A `_`-prefixed parameter is unused on purpose (kept for its position), and
      // `({ dropped, ...rest }) => rest` names what it leaves out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests poke at parsed JSON of any shape (a hostile file, a field set to the wrong type).
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The rules of hooks. Version 7's 'recommended' adds the React Compiler's rules (refs,
    // set-state-in-effect, ...): this app is not compiled by it, and they took two thirds of
    // the lint's time, so only the two classic rules run.
    files: ['src/app/**/*.{ts,tsx}', 'src/main.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // A dependency left out (or added) on purpose has a disable comment that says why.
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // Import boundaries. A later block for the same files replaces the rule's options, so each
  // block lists all that applies to its files.
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: core }] },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('app', 'share', 'export', 'pwa'), message: 'The engine may not import the page (src/app) or the share code.' },
            noReact,
            { regex: '^zustand(/|$)', message: 'The engine has no store: it reports through the worker protocol.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@tensorflow/',
              allowTypeImports: true,
              message: 'The page bundle stays free of tfjs (only the training worker loads it): use `import type`.',
            },
            {
              // protocol.ts and backendChoice.ts are written for both sides and load no tfjs; the
              // other engine modules do (src/app/pageBundle.test.ts follows the whole chain).
              regex: '^(\\.\\./)+engine/(?!(protocol|backendChoice)$)',
              allowTypeImports: true,
              message: 'The page may load only engine/protocol and engine/backendChoice (no tfjs); use `import type` for the rest.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/share/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('engine', 'app'), message: 'Share links and files may not import the engine or the page (src/app).' },
            noReact,
          ],
        },
      ],
    },
  },
  {
    // The room server (npm run room) shares the wire protocol and the run schemas with the page,
    // and nothing else of it: no page, no engine (tfjs), no React.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+src/(app|engine|export|bench)(/|$)', message: 'The room server may not import the page or the engine: only src/room, src/share, src/core (and src/pwa/csp for the headers).' },
            noReact,
          ],
        },
      ],
    },
  },
  {
    // Tests of run files replay them through the page's reducer (src/app/store/record.ts) to
    // check the charts they give; only the shipped share code is kept free of src/app.
    files: ['src/share/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('engine'), message: 'Share links and files may not import the engine.' },
            noReact,
          ],
        },
      ],
    },
  },
]);
