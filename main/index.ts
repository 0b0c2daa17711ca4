import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { bootEngine } from './boot';
import { createServer, LOOPBACK_NAMES } from './api/server';
import { DEFAULT_CSP, hardenedWebPreferences, isAppUrl, isPermissionAllowed, isPermissionCheckAllowed } from './electron/security';

/**
 * The desktop app: the same engine and /v1 API as `tourdesk serve`, on a random loopback port,
 * with the React renderer as its first client. The renderer gets the API base URL and a key
 * through the preload bridge and nothing else.
 */
let apiConfig: { baseUrl: string; apiKey: string } | null = null;

async function start(): Promise<void> {
  const dataDir = process.env.TOURDESK_DATA_DIR ?? app.getPath('userData');
  const { engine } = await bootEngine({ dataDir, demo: process.argv.includes('--demo') });
  const { key } = await engine.apiKeys.create({ role: 'supplier', name: `Desktop session ${new Date().toISOString()}` });
  const server = await createServer({ engine, allowedHosts: LOOPBACK_NAMES });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  apiConfig = { baseUrl: `http://127.0.0.1:${port}`, apiKey: key };

  ipcMain.handle('tourdesk:config', () => apiConfig);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DEFAULT_CSP(port)] } });
  });

  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'TourDesk',
    webPreferences: hardenedWebPreferences(join(__dirname, '../preload/index.cjs')),
  });
  // No navigation away from the app and no new windows; external links open in the browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, process.env.ELECTRON_RENDERER_URL)) event.preventDefault();
  });
  // No remote content and no permission prompts, except the camera for scanning, for the app's own page.
  const devUrl = process.env.ELECTRON_RENDERER_URL;
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, details as { mediaTypes?: string[] }, devUrl)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionCheckAllowed(permission, (details as { requestingUrl?: string }).requestingUrl ?? requestingOrigin, (details as { mediaType?: string }).mediaType, devUrl),
  );
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  if (process.env.ELECTRON_RENDERER_URL) await win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else await win.loadFile(join(__dirname, '../renderer/index.html'));

  app.on('before-quit', () => {
    void server.close().then(() => engine.close());
  });
}

app.whenReady().then(start, (error) => {
  console.error(error);
  app.exit(1);
});
app.on('window-all-closed', () => app.quit());
