import { describe, expect, it } from 'vitest';
import { DEFAULT_CSP, hardenedWebPreferences, isAppUrl } from '../../main/electron/security';

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
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain('connect-src \'self\' http://127.0.0.1:43210');
    expect(csp).toContain("object-src 'none'");
  });
});
