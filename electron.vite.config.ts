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
  },
});
