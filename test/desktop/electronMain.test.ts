import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { claimServerLock, SERVER_INFO_FILE } from '../../main/serverLock';

/**
 * main/index.ts run under plain Node against a fake Electron: the real engine, the real API on a real
 * port, the shell's real functions; only the window, menu and keychain are stand-ins. Each import of
 * main/index.ts is one launch of the desktop app.
 */
interface FakeWorld {
  app: EventEmitter & Record<string, any>;
  errorBoxes: { title: string; content: string }[];
  windows: FakeWindow[];
  handlers: Map<string, (event: unknown) => unknown>;
  menu: { label?: string; submenu?: { label?: string; role?: string }[] }[] | null;
  permissionRequest?: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string; mediaTypes?: string[] }) => void;
}
type FakeWindow = EventEmitter & { options: Record<string, any>; loaded: string | null; maximized: boolean; shown: boolean; webContents: EventEmitter & Record<string, any> } & Record<string, any>;

const worlds = vi.hoisted(() => ({ current: null as unknown as FakeWorld, lockFree: true }));
/** How often the launch set V8's serving options (main/runtime.ts: the real function runs too). */
const tuning = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../main/runtime', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../main/runtime')>();
  return { ...real, tuneV8ForServing: () => { tuning.calls++; real.tuneV8ForServing(); } };
});

/** The launch's background sync (main/sync/background.ts: the real function runs, its start and stop are counted). */
const syncing = vi.hoisted(() => ({ started: 0, stopped: 0, syncAll: null as null | (() => Promise<unknown[]>) }));
vi.mock('../../main/sync/background', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../main/sync/background')>();
  return {
    ...real,
    startBackgroundSync: (syncAll: () => Promise<never[]>, log: (line: string) => void) => {
      syncing.started++;
      syncing.syncAll = syncAll;
      const background = real.startBackgroundSync(syncAll, log);
      return { stop: () => (syncing.stopped++, background.stop()) };
    },
  };
});

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const world: FakeWorld = { app: null as never, errorBoxes: [], windows: [], handlers: new Map(), menu: null };
  worlds.current = world;
  const app = Object.assign(new EventEmitter(), {
    name: 'TourDesk',
    requestSingleInstanceLock: () => worlds.lockFree,
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: () => Promise.resolve(),
    getPath: () => process.env.TOURDESK_DATA_DIR,
    getVersion: () => '0.1.0',
    setAboutPanelOptions: vi.fn(),
    showAboutPanel: vi.fn(),
  });
  world.app = app;
  class BrowserWindow extends EventEmitter {
    static getFocusedWindow = () => null;
    options: Record<string, any>;
    loaded: string | null = null;
    maximized = false;
    shown = false;
    webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn(), print: vi.fn((_o: unknown, done: (ok: boolean, why: string) => void) => done(true, '')) });
    constructor(options: Record<string, any>) {
      super();
      this.options = options;
      world.windows.push(this as unknown as FakeWindow);
    }
    loadFile = async (file: string) => {
      this.loaded = file;
      this.emit('ready-to-show');
    };
    loadURL = async (url: string) => {
      this.loaded = url;
      this.emit('ready-to-show');
    };
    maximize = () => void (this.maximized = true);
    show = () => void (this.shown = true);
    getNormalBounds = () => ({ x: this.options.x, y: this.options.y, width: this.options.width, height: this.options.height });
    isMaximized = () => this.maximized;
    isFullScreen = () => false;
  }
  const display = { workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  return {
    app,
    BrowserWindow,
    dialog: { showErrorBox: (title: string, content: string) => void world.errorBoxes.push({ title, content }) },
    ipcMain: { handle: (channel: string, listener: (event: unknown) => unknown) => world.handlers.set(channel, listener) },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: (menu: FakeWorld['menu']) => void (world.menu = menu) },
    safeStorage: {
      isAsyncEncryptionAvailable: async () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptStringAsync: async (text: string) => Buffer.from(text).reverse(),
      decryptStringAsync: async (data: Buffer) => ({ result: Buffer.from(data).reverse().toString(), shouldReEncrypt: false }),
    },
    screen: { getAllDisplays: () => [display], getPrimaryDisplay: () => display },
    session: { defaultSession: { webRequest: { onHeadersReceived: vi.fn() }, setPermissionRequestHandler: (handler: FakeWorld['permissionRequest']) => void (world.permissionRequest = handler), setPermissionCheckHandler: vi.fn() } },
    shell: { openExternal: vi.fn() },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'tourdesk-electron-main-'));
const previousDataDir = process.env.TOURDESK_DATA_DIR;
process.env.TOURDESK_DATA_DIR = dir;
afterAll(() => {
  if (previousDataDir === undefined) delete process.env.TOURDESK_DATA_DIR;
  else process.env.TOURDESK_DATA_DIR = previousDataDir;
  rmSync(dir, { recursive: true, force: true });
});

/** An IPC event as the window's page sends it (the page the window loaded). */
const fromPage = (url: string) => ({ sender: { print: (_options: unknown, done: (ok: boolean, why: string) => void) => done(true, '') }, senderFrame: { url } });

/** The fake Electron module is created once (vi.mock caches it); each launch starts from a clean slate. */
async function importMain(): Promise<FakeWorld> {
  vi.resetModules();
  const world = worlds.current;
  if (world) {
    world.windows.length = 0;
    world.errorBoxes.length = 0;
    world.handlers.clear();
    world.menu = null;
    world.app.removeAllListeners();
    world.app.quit.mockClear();
    world.app.exit.mockClear();
  }
  await import('../../main/index');
  return worlds.current;
}

async function launch(): Promise<FakeWorld> {
  const world = await importMain();
  await vi.waitFor(() => expect(world.windows[0]?.loaded).toBeTruthy(), { timeout: 20_000 });
  return world;
}
async function quit(world: FakeWorld) {
  world.windows[0].emit('close');
  world.app.emit('before-quit');
  // server.close(), engine.close(), then the data folder is freed for the next server (main/serverLock.ts).
  await vi.waitFor(() => expect(existsSync(join(dir, SERVER_INFO_FILE))).toBe(false), { timeout: 20_000 });
}

describe('the desktop app syncs as serve does', () => {
  it('starts the background sync with the engine’s exchange when it launches, and stops it when it quits', async () => {
    syncing.started = 0;
    syncing.stopped = 0;
    const world = await launch();
    expect(syncing.started).toBe(1);
    // The engine's own exchange with every peer: none are paired here, so it has nothing to report.
    await expect(syncing.syncAll!()).resolves.toEqual([]);
    expect(syncing.stopped).toBe(0);
    await quit(world);
    expect(syncing.stopped).toBe(1);
  });
});

describe('the desktop app, launched twice', () => {
  it('hands the renderer a key that works on the API, the same key at the next launch, and reopens the window where it was', async () => {
    tuning.calls = 0;
    const first = await launch();
    // The main process serves the API as `tourdesk serve` does, with the same V8 options.
    expect(tuning.calls).toBe(1);
    const appPage = fromPage(first.windows[0].loaded!);
    const config = first.handlers.get('tourdesk:config')!(appPage) as { baseUrl: string; apiKey: string };
    expect(config.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The window's page comes from the engine itself, so its API calls are same-origin (the server refuses cross-site ones).
    expect(first.windows[0].loaded).toBe(`${config.baseUrl}/`);
    const products = await fetch(`${config.baseUrl}/v1/products`, { headers: { apiKey: config.apiKey, origin: config.baseUrl } });
    expect(products.status).toBe(200);
    expect(() => first.handlers.get('tourdesk:config')!(fromPage('http://127.0.0.1:1/'))).toThrow(/not the TourDesk page/);
    expect(await first.handlers.get('tourdesk:print')!(appPage)).toEqual({ printed: true });
    // The camera (for scanning) is granted to the app's own page only.
    const ask = (url: string) => new Promise((resolve) => first.permissionRequest!(null, 'media', resolve, { requestingUrl: url, mediaTypes: ['video'] }));
    expect(await ask(`${config.baseUrl}/scan`)).toBe(true);
    expect(await ask('http://127.0.0.1:1/scan')).toBe(false);
    expect(first.menu?.map((item) => item.label?.replace('&', ''))).toContain('File');
    const win = first.windows[0];
    expect(win.options).toMatchObject({ width: 1280, height: 820, show: false, webPreferences: { sandbox: true, contextIsolation: true } });
    expect(win.shown).toBe(true);
    win.options = { ...win.options, x: 100, y: 50, width: 1000, height: 700 }; // the clerk moves and resizes it
    win.maximized = true;
    await quit(first);
    expect(JSON.parse(readFileSync(join(dir, 'window-state.json'), 'utf8'))).toEqual({ bounds: { x: 100, y: 50, width: 1000, height: 700 }, maximized: true });

    const second = await launch();
    const again = second.handlers.get('tourdesk:config')!(fromPage(second.windows[0].loaded!)) as { baseUrl: string; apiKey: string };
    expect(again.apiKey).toBe(config.apiKey);
    expect((await fetch(`${again.baseUrl}/v1/products`, { headers: { apiKey: again.apiKey } })).status).toBe(200);
    expect(second.windows[0].options).toMatchObject({ x: 100, y: 50, width: 1000, height: 700 });
    expect(second.windows[0].maximized).toBe(true);
    await quit(second);
  }, 90_000);

  it('a launch while another instance runs starts nothing: no engine, no window', async () => {
    worlds.lockFree = false;
    try {
      const world = await importMain();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(world.app.quit).toHaveBeenCalled();
      expect(world.windows).toEqual([]);
      expect(world.handlers.size).toBe(0);
    } finally {
      worlds.lockFree = true;
    }
  });
});

describe('the desktop app on a data folder a server has', () => {
  it('starts nothing and exits 1, telling the user which server has the folder, where it listens and since when', async () => {
    const serve = claimServerLock(dir, 'serve', new Date('2030-03-05T08:00:00Z'));
    serve.listening('http://127.0.0.1:8080');
    try {
      const world = await importMain();
      await vi.waitFor(() => expect(world.app.exit).toHaveBeenCalledWith(1), { timeout: 20_000 });
      expect(world.errorBoxes).toHaveLength(1);
      expect(world.errorBoxes[0].content).toContain(`\`tourdesk serve\` (pid ${process.pid}), listening on http://127.0.0.1:8080, since 2030-03-05T08:00:00.000Z`);
      expect(world.windows).toEqual([]);
      expect(world.handlers.size).toBe(0);
    } finally {
      serve.release();
    }
    // Once that server has stopped, the app starts on the folder.
    await quit(await launch());
  }, 90_000);
});
