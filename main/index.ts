import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, screen, session, shell } from 'electron';
import { join } from 'node:path';
import { claimSingleInstance } from './electron/singleInstance';
import { DESKTOP_KEY_FILE, obtainDesktopKey, safeStorageSecrets } from './electron/desktopKey';
import { MIN_SIZE, WINDOW_STATE_FILE, loadWindowState, placeWindow, rememberWindowState } from './electron/windowState';
import { applicationMenuTemplate } from './electron/menu';
import { registerBridge } from './electron/bridge';
import { printContents } from './electron/printing';
import type { ApiConfig } from './electron/channels';
import { bootEngine } from './boot';
import { claimServerLock, DataFolderInUseError, type ServerLock } from './serverLock';
import { startBackgroundSync } from './sync/background';
import { tuneV8ForServing } from './runtime';
import { defaultDataDir } from './config';
import { createServer, LOOPBACK_NAMES } from './api/server';
import { DEFAULT_CSP, hardenedWebPreferences, isPermissionAllowed, isPermissionCheckAllowed } from './electron/security';
import { DEV_ENGINE_PORT, appPage, isOwnPage } from './electron/appPage';

/**
 * The desktop app: the same engine and /v1 API as `tourdesk serve`, on a random loopback port,
 * with the React renderer as its first client. The renderer gets the API base URL and the desktop
 * key through the preload bridge, and a print function; nothing else. The shell's logic lives in
 * main/electron/ (tested under plain Node); this file only wires it to Electron.
 */
let apiConfig: ApiConfig | null = null;
let mainWindow: BrowserWindow | null = null;
const isDevelopment = Boolean(process.env.ELECTRON_RENDERER_URL);

async function start(): Promise<void> {
  // V8 as `tourdesk serve` runs it (main/runtime.ts): this process serves the same API.
  tuneV8ForServing();
  // The same folder as `tourdesk serve` (README's table), so the desktop app and a headless server share one database.
  const dataDir = defaultDataDir();
  const lock = claimFolderOrExplain(dataDir);
  if (!lock) return;
  const { engine } = await bootEngine({ dataDir, demo: process.argv.includes('--demo') });
  const { key } = await obtainDesktopKey({
    file: join(dataDir, DESKTOP_KEY_FILE),
    secrets: safeStorageSecrets(safeStorage, process.platform),
    keys: engine.apiKeys,
    say: (line) => console.warn(line),
  });
  const devServerUrl = process.env.ELECTRON_RENDERER_URL;
  // The engine serves the built renderer too, so the window's page and its API share one origin.
  const server = await createServer({ engine, allowedHosts: LOOPBACK_NAMES, webRoot: devServerUrl ? null : join(__dirname, '../renderer') });
  await server.listen({ host: '127.0.0.1', port: devServerUrl ? DEV_ENGINE_PORT : 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  lock.listening(`http://127.0.0.1:${port}`);
  const page = appPage(port, devServerUrl);
  apiConfig = { baseUrl: page.apiBaseUrl, apiKey: key };
  // As `tourdesk serve` does: exchange with every paired peer every few seconds, backing off while one fails.
  const background = startBackgroundSync(() => engine.sync.syncAll(), (line) => console.warn(line));

  registerBridge(ipcMain, { getConfig: () => apiConfig, isAppUrl: (url) => isOwnPage(url, page) });
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DEFAULT_CSP(port)] } });
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      applicationMenuTemplate({
        appName: app.name,
        platform: process.platform,
        isDevelopment,
        actions: {
          printManifest: () => {
            const target = BrowserWindow.getFocusedWindow() ?? mainWindow;
            if (target) void printContents(target.webContents);
          },
          openDocs: () => void shell.openExternal(`${apiConfig!.baseUrl}/docs`),
          showAbout: () => app.showAboutPanel(),
        },
      }),
    ),
  );

  const stateFile = join(dataDir, WINDOW_STATE_FILE);
  const placed = placeWindow(loadWindowState(stateFile), screen.getAllDisplays(), screen.getPrimaryDisplay());
  const win = new BrowserWindow({
    ...placed.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'TourDesk',
    webPreferences: hardenedWebPreferences(join(__dirname, '../preload/index.cjs')),
  });
  mainWindow = win;
  rememberWindowState(win, stateFile);
  win.once('ready-to-show', () => {
    if (placed.maximized) win.maximize();
    win.show();
  });
  // No navigation away from the app and no new windows; external links open in the browser.
  win.webContents.on('will-navigate', (event, url) => {
    if (!isOwnPage(url, page)) event.preventDefault();
  });
  // No remote content and no permission prompts, except the camera for scanning, for the app's own page.
  const devUrl = page.pageUrl;
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
  await win.loadURL(page.pageUrl);

  app.on('before-quit', () => {
    background.stop();
    void server.close().then(() => engine.close()).then(() => lock.release());
  });
}

/** The data folder for this app's engine, or null after telling the user which server has it (it then exits 1). */
function claimFolderOrExplain(dataDir: string): ServerLock | null {
  try {
    return claimServerLock(dataDir, 'desktop');
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error;
    dialog.showErrorBox('TourDesk is already running on this data folder', error.message);
    app.exit(1);
    return null;
  }
}

// A second launch only brings the first window forward; it must not open the database a second time.
if (claimSingleInstance(app, () => mainWindow)) {
  app.setAboutPanelOptions({ applicationName: 'TourDesk', applicationVersion: app.getVersion(), copyright: 'Offline-first check-in and manifests' });
  app.whenReady().then(start, (error) => {
    console.error(error);
    app.exit(1);
  });
  app.on('window-all-closed', () => app.quit());
}
