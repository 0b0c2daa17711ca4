import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const http = ['fastify', '@fastify/*', 'node:http', 'http', 'node:https', 'https'];
// The one module of main/ whose code the renderer takes: the scan rules, which import nothing (the scanner's offline verdict weighs them).
const RENDERER_SHARED_MODULE = 'domain/checkin/scanOutcome$';
const noElectronOrHttp = ['electron', 'fastify', 'node:http', 'http'].map((name) => ({ name, message: 'The engine knows nothing of HTTP or Electron.' }));

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'renderer/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only the Electron entry (main/index.ts, main/electron/) and the preload import 'electron'.
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only main/index.ts, main/electron/ and preload/ import electron.' }] }],
    },
  },
  {
    files: ['main/index.ts', 'main/electron/**', 'preload/**', 'electron.vite.config.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // The engine knows nothing of HTTP or Electron; the domain holds rules, not storage.
    files: ['main/domain/**', 'main/engine.ts', 'main/sync/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...noElectronOrHttp, { name: 'better-sqlite3', message: 'The domain reaches SQLite only through db/ (queries, transactions).' }],
          patterns: [
            { group: http, message: 'The domain stays free of HTTP.' },
            { regex: '(^|/)api(/|$)', message: 'The domain never imports the HTTP layer (main/api/); shapes live in main/contract/.' },
          ],
        },
      ],
    },
  },
  {
    // Storage knows nothing of the rules above it: db/ may use the contract's enums, never domain/ or api/.
    files: ['db/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: noElectronOrHttp,
          patterns: [
            { group: http, message: 'db/ stays free of HTTP.' },
            { regex: '(^|/)main/(domain|api)(/|$)', message: 'db/ never imports domain/ or api/ (the arrow points the other way).' },
          ],
        },
      ],
    },
  },
  {
    // The contract is shapes only: it knows nothing of the rules, the storage or the transport.
    files: ['main/contract/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...noElectronOrHttp, { name: 'better-sqlite3', message: 'The contract is shapes only.' }, { name: 'kysely', message: 'The contract is shapes only.' }],
          patterns: [
            { group: http, message: 'The contract is shapes only.' },
            { regex: '(^|/)(domain|db|api)(/|$)', message: 'main/contract/ imports nothing from domain/, db/ or api/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // The renderer is an API client like any other: it may share the contract's types, never code.
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to the API, not to Electron.' }],
          patterns: [
            { regex: '(^|/)main/contract(/|$)', allowTypeImports: true, message: 'Only `import type` from main/contract/.' },
            { regex: `(^|/)(main/(?!contract(/|$)|${RENDERER_SHARED_MODULE})|db(/|$))`, message: 'The renderer imports nothing from main/ or db/ but types from main/contract/ (and the scan rules).' },
          ],
        },
      ],
    },
  },
);
