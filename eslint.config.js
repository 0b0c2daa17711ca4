import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const http = ['fastify', '@fastify/*', 'node:http', 'http', 'node:https', 'https'];

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
    // The engine knows nothing of HTTP or Electron.
    files: ['main/domain/**', 'db/**', 'main/engine.ts', 'main/sync/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: ['electron', 'fastify', 'node:http', 'http'].map((name) => ({ name, message: 'domain/ and db/ stay free of HTTP and Electron.' })), patterns: [{ group: http, message: 'domain/ and db/ stay free of HTTP.' }] },
      ],
    },
  },
  {
    // The renderer is an API client like any other: it may share types, never code, with main/ and db/.
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to the API, not to Electron.' }],
          patterns: [{ group: ['**/main/**', '**/db/**', '../main/*', '../../main/*'], allowTypeImports: true, message: 'Only `import type` from main/ or db/.' }],
        },
      ],
    },
  },
);
