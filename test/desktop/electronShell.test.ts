import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { applicationMenuTemplate, type MenuActions } from '../../main/electron/menu';
import { claimSingleInstance, type FocusableWindow } from '../../main/electron/singleInstance';
import { registerBridge, type BridgeEvent } from '../../main/electron/bridge';
import { CHANNELS } from '../../main/electron/channels';
import { PRINT_OPTIONS, printContents, type Printable } from '../../main/electron/printing';
import { isAppUrl } from '../../main/electron/security';

// ---- the application menu -------------------------------------------------------------------

type MenuItemConstructorOptions = ReturnType<typeof applicationMenuTemplate>[number];

function spyActions() {
  const calls: string[] = [];
  const actions: MenuActions = { printManifest: () => calls.push('print'), openDocs: () => calls.push('docs'), showAbout: () => calls.push('about') };
  return { actions, calls };
}
const menuFor = (platform: NodeJS.Platform, isDevelopment = false, actions = spyActions().actions) => applicationMenuTemplate({ appName: 'TourDesk', platform, isDevelopment, actions });
const label = (item: MenuItemConstructorOptions) => (item.label ?? '').replace('&', '');
const topLevel = (menu: MenuItemConstructorOptions[]) => menu.map(label);
const submenu = (menu: MenuItemConstructorOptions[], name: string) => {
  const found = menu.find((item) => label(item) === name);
  if (!found) throw new Error(`no ${name} menu`);
  return found.submenu as MenuItemConstructorOptions[];
};
const roles = (items: MenuItemConstructorOptions[]) => items.map((item) => item.role ?? item.label ?? item.type);
const click = (item: MenuItemConstructorOptions | undefined) => (item!.click as () => void)();

describe('the application menu', () => {
  it('has File, Edit, View, Window and Help on Windows and Linux, with Alt mnemonics', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const menu = menuFor(platform);
      expect(topLevel(menu)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
      expect(menu[0].label).toBe('&File');
    }
  });

  it('on macOS starts with the app menu holding About and Quit, without ampersands', () => {
    const menu = menuFor('darwin');
    expect(topLevel(menu)).toEqual(['TourDesk', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(menu.every((item) => !item.label?.includes('&'))).toBe(true);
    expect(roles(submenu(menu, 'TourDesk'))).toEqual(expect.arrayContaining(['about', 'hide', 'quit']));
    expect(roles(submenu(menu, 'File'))).toContain('close');
    expect(roles(submenu(menu, 'File'))).not.toContain('quit');
    expect(submenu(menu, 'Help').some((item) => /About/.test(item.label ?? ''))).toBe(false);
  });

  it('File prints the manifest with Ctrl/Cmd+P and quits', () => {
    const { actions, calls } = spyActions();
    const file = submenu(menuFor('linux', false, actions), 'File');
    const print = file.find((item) => /Print/.test(item.label ?? ''));
    expect(print?.accelerator).toBe('CmdOrCtrl+P');
    click(print);
    expect(calls).toEqual(['print']);
    expect(roles(file)).toContain('quit');
  });

  it('Edit has the clipboard and undo', () => {
    expect(roles(submenu(menuFor('win32'), 'Edit'))).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
  });

  it('View reloads, zooms and goes full screen; developer tools only in development', () => {
    const production = roles(submenu(menuFor('linux', false), 'View'));
    expect(production).toEqual(expect.arrayContaining(['reload', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']));
    expect(production).not.toContain('toggleDevTools');
    expect(production).not.toContain('forceReload');
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(roles(submenu(menuFor(platform, true), 'View'))).toContain('toggleDevTools');
      expect(roles(submenu(menuFor(platform, false), 'View'))).not.toContain('toggleDevTools');
    }
  });

  it('Window minimises; Help opens the docs and, off macOS, About', () => {
    const { actions, calls } = spyActions();
    const menu = menuFor('win32', false, actions);
    expect(roles(submenu(menu, 'Window'))).toContain('minimize');
    const help = submenu(menu, 'Help');
    click(help.find((item) => /Documentation/.test(item.label ?? '')));
    click(help.find((item) => /About/.test(item.label ?? '')));
    expect(calls).toEqual(['docs', 'about']);
  });
});

// ---- single instance ------------------------------------------------------------------------

function fakeApp(lockFree: boolean) {
  return Object.assign(new EventEmitter(), { requestSingleInstanceLock: () => lockFree, quit: vi.fn() });
}
function fakeWindow(state: { minimized?: boolean; visible?: boolean; destroyed?: boolean } = {}) {
  const calls: string[] = [];
  const win: FocusableWindow = {
    isDestroyed: () => state.destroyed ?? false,
    isMinimized: () => state.minimized ?? false,
    isVisible: () => state.visible ?? true,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
  return { win, calls };
}

describe('one instance at a time', () => {
  it('a second launch quits without starting anything', () => {
    const app = fakeApp(false);
    expect(claimSingleInstance(app, () => null)).toBe(false);
    expect(app.quit).toHaveBeenCalledOnce();
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('the first instance restores, shows and focuses its window when launched again', () => {
    const app = fakeApp(true);
    const { win, calls } = fakeWindow({ minimized: true, visible: false });
    expect(claimSingleInstance(app, () => win)).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
    app.emit('second-instance');
    expect(calls).toEqual(['restore', 'show', 'focus']);
  });

  it('a second launch while the first is still booting (no window yet) or closing changes nothing', () => {
    const app = fakeApp(true);
    let current: FocusableWindow | null = null;
    claimSingleInstance(app, () => current);
    expect(() => app.emit('second-instance')).not.toThrow();
    const { win, calls } = fakeWindow({ destroyed: true });
    current = win;
    app.emit('second-instance');
    expect(calls).toEqual([]);
  });
});

// ---- printing and the bridge ----------------------------------------------------------------

function fakePrinter(outcome: [boolean, string]) {
  const seen: unknown[] = [];
  const contents: Printable = {
    print: (options, callback) => {
      seen.push(options);
      callback(...outcome);
    },
  };
  return { contents, seen };
}

describe('printing', () => {
  it('opens the system print dialog with backgrounds and reports the outcome', async () => {
    const { contents, seen } = fakePrinter([true, '']);
    expect(await printContents(contents)).toEqual({ printed: true });
    expect(seen).toEqual([{ silent: false, printBackground: true }]);
    expect(PRINT_OPTIONS.silent).toBe(false);
  });

  it('reports a cancelled dialog or a failure as not printed, with the reason', async () => {
    expect(await printContents(fakePrinter([false, 'cancelled']).contents)).toEqual({ printed: false, reason: 'cancelled' });
    const throwing: Printable = {
      print: () => {
        throw new Error('No printers');
      },
    };
    expect(await printContents(throwing)).toEqual({ printed: false, reason: 'No printers' });
  });
});

function fakeIpc() {
  const handlers = new Map<string, (event: BridgeEvent) => unknown>();
  return { handlers, handle: (channel: string, listener: (event: BridgeEvent) => unknown) => void handlers.set(channel, listener) };
}
const appPage = 'file:///opt/TourDesk/resources/app.asar/out/renderer/index.html';

describe('the main side of the bridge', () => {
  const config = { baseUrl: 'http://127.0.0.1:41234', apiKey: 'td_desktop' };

  it('answers the app page with the API config and a print dialog, and nothing else', async () => {
    const ipc = fakeIpc();
    registerBridge(ipc, { getConfig: () => config, isAppUrl: (url) => isAppUrl(url) });
    expect([...ipc.handlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
    const { contents, seen } = fakePrinter([true, '']);
    const event: BridgeEvent = { sender: contents, senderFrame: { url: appPage } };
    expect(ipc.handlers.get(CHANNELS.config)!(event)).toEqual(config);
    expect(await ipc.handlers.get(CHANNELS.print)!(event)).toEqual({ printed: true });
    expect(seen).toHaveLength(1);
  });

  it('refuses a page that is not the app (the key is never handed out, nothing is printed)', () => {
    const ipc = fakeIpc();
    registerBridge(ipc, { getConfig: () => config, isAppUrl: (url) => isAppUrl(url) });
    const { contents, seen } = fakePrinter([true, '']);
    for (const senderFrame of [{ url: 'https://evil.example/' }, null]) {
      const event: BridgeEvent = { sender: contents, senderFrame };
      expect(() => ipc.handlers.get(CHANNELS.config)!(event)).toThrow(/Refused/);
      expect(() => ipc.handlers.get(CHANNELS.print)!(event)).toThrow(/Refused/);
    }
    expect(seen).toEqual([]);
  });
});

// ---- the preload: what the renderer sees ----------------------------------------------------

const exposed = vi.hoisted(() => ({ worlds: new Map<string, unknown>(), invoked: [] as string[] }));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => exposed.worlds.set(name, api) },
  ipcRenderer: { invoke: async (channel: string) => (exposed.invoked.push(channel), channel) },
}));

describe('the preload bridge', () => {
  it('exposes window.tourdesk with two functions and no objects, each one IPC call', async () => {
    await import('../../preload/index');
    expect([...exposed.worlds.keys()]).toEqual(['tourdesk']);
    const bridge = exposed.worlds.get('tourdesk') as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['getApiConfig', 'printPage']);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
    await (bridge.getApiConfig as () => Promise<unknown>)();
    await (bridge.printPage as () => Promise<unknown>)();
    expect(exposed.invoked).toEqual([CHANNELS.config, CHANNELS.print]);
  });
});
