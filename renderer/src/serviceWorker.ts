/**
 * The service worker (public/sw.js, its file list written by the build) keeps the app shell on the
 * device so the scanner opens with no network. Browsers allow one only on secure pages (HTTPS,
 * localhost, 127.0.0.1); the desktop app's file:// window needs none.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext || location.protocol === 'file:') return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('Offline app shell unavailable:', error));
  });
}
