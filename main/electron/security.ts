import type { WebPreferences } from 'electron';

/** Hardened renderer: isolated, sandboxed, no Node, the preload bridge only. */
export function hardenedWebPreferences(preload: string): WebPreferences {
  return { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false };
}

/** Only the app's own pages: file:// in production, the dev server's origin in development. */
export function isAppUrl(url: string, appUrl?: string): boolean {
  if (appUrl) {
    // The same origin exactly: a prefix match would let http://127.0.0.1:51730 pass for :5173.
    try {
      if (new URL(url).origin === new URL(appUrl).origin) return true;
    } catch {
      return false;
    }
  }
  return url.startsWith('file://');
}

/**
 * Permission requests: the camera (for scanning), asked by the app's own page, and nothing else:
 * no microphone, no screen capture, no notifications, and nothing for any other origin.
 */
export function isPermissionAllowed(permission: string, requestingUrl: string, details: { mediaTypes?: string[] } = {}, devServerUrl?: string): boolean {
  if (permission !== 'media' || !isAppUrl(requestingUrl, devServerUrl)) return false;
  const types = details.mediaTypes ?? [];
  return types.length > 0 && types.every((t) => t === 'video');
}

/** The synchronous permission check (enumerating cameras, the Permissions API): the camera for the app's page only. */
export function isPermissionCheckAllowed(permission: string, requestingOrigin: string, mediaType: string | undefined, devServerUrl?: string): boolean {
  return permission === 'media' && mediaType === 'video' && isAppUrl(requestingOrigin, devServerUrl);
}

/** The renderer may talk to its own loopback API and nothing else; no inline scripts, no remote content. */
export const DEFAULT_CSP = (port: number) =>
  [
    "default-src 'self'",
    // WebAssembly for the QR decoder (zxing-wasm); still no eval and no inline scripts.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    // blob: for QR codes and exports the renderer fetches with the key and shows as blob URLs.
    `img-src 'self' data: blob: http://127.0.0.1:${port}`,
    `connect-src 'self' http://127.0.0.1:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
