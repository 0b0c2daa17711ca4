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

/**
 * The app's icons from build/ (the one source, build/icon.svg, and the PNGs `npm run icons` makes
 * from it) at the web root, with a web app manifest: browsers ask for an icon on every page load,
 * and a phone's "add to home screen" wants the manifest's.
 */
function appIcons(): Plugin {
  const icons = resolve(import.meta.dirname, '..', 'build');
  return {
    name: 'tourdesk-app-icons',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'favicon.svg', source: readFileSync(resolve(icons, 'icon.svg')) });
      this.emitFile({ type: 'asset', fileName: 'favicon-32.png', source: readFileSync(resolve(icons, 'icons', '32x32.png')) });
      for (const size of [256, 512]) this.emitFile({ type: 'asset', fileName: `icons/${size}.png`, source: readFileSync(resolve(icons, 'icons', `${size}x${size}.png`)) });
      const manifest = {
        name: 'TourDesk',
        short_name: 'TourDesk',
        start_url: '/',
        display: 'standalone',
        background_color: '#f3f6f9',
        theme_color: '#0b5e7e',
        icons: [
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
          { src: '/icons/256.png', sizes: '256x256', type: 'image/png' },
          { src: '/icons/512.png', sizes: '512x512', type: 'image/png' },
        ],
      };
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: JSON.stringify(manifest, null, 2) });
    },
  };
}

/** The renderer built as a plain web page, served by `tourdesk serve` at / (and at every app route). */
export default defineConfig({
  root: import.meta.dirname,
  // Absolute: /sessions/12 and /scan load the same /assets/… files.
  base: '/',
  plugins: [react(), appIcons(), serviceWorker()],
  build: { outDir: resolve(import.meta.dirname, '..', 'out', 'web'), emptyOutDir: true },
});
