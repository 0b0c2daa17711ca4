/**
 * One TourDesk window per user: a second launch (a double-click on the icon, a desktop shortcut)
 * brings the running window to the front instead of opening a second engine on the same data folder.
 */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
}

export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  isVisible(): boolean;
  show(): void;
  focus(): void;
}

export function bringToFront(win: FocusableWindow | null): void {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

/**
 * Returns false (and quits) when another instance holds the lock: the caller must then start nothing.
 * Otherwise later launches focus the window `currentWindow()` returns (null while still booting).
 */
export function claimSingleInstance(app: SingleInstanceApp, currentWindow: () => FocusableWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => bringToFront(currentWindow()));
  return true;
}
