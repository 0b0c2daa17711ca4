import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Writes sw.js with the list of built files (the decoder's wasm included), so the shell works offline. */
function serviceWorker(): Plugin {
  return {
    name: 'tourdesk-service-worker',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => !name.endsWith('.map') && name !== 'index.html' && name !== 'sw.js')
        .map((name) => `/${name}`)
        .sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(resolve(import.meta.dirname, 'sw.js'), 'utf8').replace('self.__PRECACHE__', JSON.stringify(files)).replace('__VERSION__', version);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/** The renderer built as a plain web page, served by `tourdesk serve` at / (and at every app route). */
export default defineConfig({
  root: import.meta.dirname,
  // Absolute: /sessions/12 and /scan load the same /assets/… files.
  base: '/',
  plugins: [react(), serviceWorker()],
  build: { outDir: resolve(import.meta.dirname, '..', 'out', 'web'), emptyOutDir: true },
});
