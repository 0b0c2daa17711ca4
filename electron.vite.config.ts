import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Our sources live in top-level main/, preload/ and renderer/ (not src/), so every entry is explicit.
export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'main/index.ts') }, external: ['better-sqlite3', 'sharp'] },
    },
  },
  preload: {
    // Sandboxed preloads must be CommonJS.
    build: { rollupOptions: { input: { index: resolve(__dirname, 'preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: { rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } } },
    plugins: [react()],
    // In development the page is served here and its API calls go to the engine the Electron main
    // process starts on a fixed port (main/electron/appPage.ts), so page and API share this origin.
    server: {
      proxy: Object.fromEntries(['/v1', '/media', '/docs'].map((path) => [path, `http://127.0.0.1:${process.env.TOURDESK_DEV_API_PORT ?? 8787}`])),
    },
  },
});
