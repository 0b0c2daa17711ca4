import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** Prints the focused window (the manifest on screen) through webContents.print. */
  printManifest(): void;
  /** Opens the local API's documentation page in the default browser. */
  openDocs(): void;
  /** The About panel (macOS has it in the app menu instead). */
  showAbout(): void;
}

export interface MenuOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** Developer tools and force-reload only when running from source (electron-vite dev). */
  isDevelopment: boolean;
  actions: MenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The native application menu, as a plain template (Menu.buildFromTemplate turns it into a menu).
 * Roles give each item the platform's own label, shortcut and behaviour; macOS gets its app menu and
 * keeps Quit and About there, as Mac users expect.
 */
export function applicationMenuTemplate({ appName, platform, isDevelopment, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  // Alt-key mnemonics (&File) are a Windows/Linux convention; macOS menus show no ampersands.
  const title = (text: string) => (mac ? text.replace('&', '') : text);
  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [{ role: 'about' }, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }],
  };
  const file: MenuItemConstructorOptions = {
    label: title('&File'),
    submenu: [{ label: 'Print Manifest…', accelerator: 'CmdOrCtrl+P', click: () => actions.printManifest() }, separator, mac ? { role: 'close' } : { role: 'quit' }],
  };
  const edit: MenuItemConstructorOptions = {
    label: title('&Edit'),
    submenu: [{ role: 'undo' }, { role: 'redo' }, separator, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []), { role: 'delete' }, separator, { role: 'selectAll' }],
  };
  const view: MenuItemConstructorOptions = {
    label: title('&View'),
    submenu: [
      { role: 'reload' },
      ...(isDevelopment ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: title('&Window'),
    role: 'windowMenu',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    label: title('&Help'),
    role: 'help',
    submenu: [{ label: `${appName} API Documentation`, click: () => actions.openDocs() }, ...(mac ? [] : [separator, { label: `About ${appName}`, click: () => actions.showAbout() }])],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, windowMenu, help];
}
