import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The renderer built as a plain web page, served by `tourdesk serve` at /. */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: { outDir: resolve(import.meta.dirname, '..', 'out', 'web'), emptyOutDir: true },
});
