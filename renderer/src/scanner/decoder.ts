import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
// The decoder's WebAssembly ships with the app (a Vite asset, cached by the service worker), so the
// camera decodes offline; by default zxing-wasm would fetch it from a CDN.
import readerWasm from 'zxing-wasm/reader/zxing_reader.wasm?url';

prepareZXingModule({
  overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? new URL(readerWasm, location.href).href : prefix + path) },
});

/** Chromium has no native BarcodeDetector on Linux and Windows: the zxing-wasm polyfill everywhere, one behaviour. */
export function makeDetector(): BarcodeDetector {
  return new BarcodeDetector({ formats: ['qr_code', 'code_128', 'code_39', 'ean_13', 'pdf417', 'aztec', 'data_matrix'] });
}
