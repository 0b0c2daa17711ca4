import { describe, expect, it } from 'vitest';
import { DEFAULT_CSP, hardenedWebPreferences, isAppUrl, isPermissionAllowed, isPermissionCheckAllowed } from '../../main/electron/security';

describe('Electron hardening', () => {
  it('isolates and sandboxes the renderer, without Node', () => {
    const prefs = hardenedWebPreferences('/app/preload/index.cjs');
    expect(prefs).toMatchObject({ preload: '/app/preload/index.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
  });

  it('lets the window navigate only within the app', () => {
    expect(isAppUrl('file:///opt/TourDesk/resources/app.asar/out/renderer/index.html')).toBe(true);
    expect(isAppUrl('http://localhost:5173/#/manifest', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('https://evil.example/')).toBe(false);
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
  });

  it('allows scripts from the app only and connections to its own loopback API only', () => {
    const csp = DEFAULT_CSP(43210);
    expect(csp).toContain("script-src 'self'");
    // WebAssembly (the QR decoder) only: never eval or inline scripts.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(eval|inline|hashes)'/);
    expect(csp).toContain('connect-src \'self\' http://127.0.0.1:43210');
    expect(csp).toContain("object-src 'none'");
  });

  it('grants the camera to the app’s own page only, and nothing else to anyone', () => {
    const app = 'file:///opt/TourDesk/resources/app.asar/out/renderer/index.html';
    expect(isPermissionAllowed('media', app, { mediaTypes: ['video'] })).toBe(true);
    expect(isPermissionAllowed('media', 'http://localhost:5173/#/scan', { mediaTypes: ['video'] }, 'http://localhost:5173')).toBe(true);
    expect(isPermissionAllowed('media', app, { mediaTypes: ['audio'] })).toBe(false);
    expect(isPermissionAllowed('media', app, { mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(isPermissionAllowed('media', app, {})).toBe(false);
    expect(isPermissionAllowed('media', 'https://evil.example/', { mediaTypes: ['video'] })).toBe(false);
    for (const other of ['geolocation', 'notifications', 'display-capture', 'clipboard-read', 'openExternal']) expect(isPermissionAllowed(other, app, { mediaTypes: ['video'] })).toBe(false);
    expect(isPermissionCheckAllowed('media', app, 'video')).toBe(true);
    expect(isPermissionCheckAllowed('media', app, 'audio')).toBe(false);
    expect(isPermissionCheckAllowed('media', 'https://evil.example', 'video')).toBe(false);
  });
});
