import { readFileSync, writeFileSync, renameSync } from 'node:fs';

/**
 * The window's size, position and maximised state, remembered across launches in the data folder.
 * Everything here is pure (or takes its file path) so it is tested under plain Node; main/index.ts
 * hands in Electron's display list and window.
 */
export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

/** What `screen.getAllDisplays()` / `getPrimaryDisplay()` give us: only the work area matters (no taskbar, no dock). */
export interface DisplayArea {
  workArea: Rectangle;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
/** Below this the manifest's columns no longer fit; also the BrowserWindow's minWidth/minHeight. */
export const MIN_SIZE = { width: 800, height: 560 } as const;

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Reads what an earlier launch saved; anything missing, damaged or hand-edited into nonsense counts as "nothing saved". */
export function parseWindowState(text: string | null): WindowState | null {
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { bounds, maximized } = data as { bounds?: Partial<Rectangle>; maximized?: unknown };
  if (!bounds || ![bounds.x, bounds.y, bounds.width, bounds.height].every(isInt)) return null;
  if (bounds.width! <= 0 || bounds.height! <= 0) return null;
  return {
    bounds: { x: Math.round(bounds.x!), y: Math.round(bounds.y!), width: Math.round(bounds.width!), height: Math.round(bounds.height!) },
    maximized: maximized === true,
  };
}

function overlapArea(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high));

function centred(size: { width: number; height: number }, area: Rectangle): Rectangle {
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  return { x: area.x + Math.round((area.width - width) / 2), y: area.y + Math.round((area.height - height) / 2), width, height };
}

/**
 * Where the window opens: the saved bounds moved and shrunk so the whole window lies on the display it
 * overlapped most (a monitor unplugged since, a resolution lowered, a laptop off its dock), or the
 * default size centred on the primary display when nothing was saved or the saved place is on no
 * display at all. Never smaller than MIN_SIZE unless the display itself is.
 */
export function placeWindow(saved: WindowState | null, displays: DisplayArea[], primary: DisplayArea): WindowState {
  if (!saved) return { bounds: centred(DEFAULT_SIZE, primary.workArea), maximized: false };
  let best: DisplayArea | null = null;
  let bestOverlap = 0;
  for (const display of displays) {
    const overlap = overlapArea(saved.bounds, display.workArea);
    if (overlap > bestOverlap) {
      best = display;
      bestOverlap = overlap;
    }
  }
  if (!best) return { bounds: centred(saved.bounds, primary.workArea), maximized: saved.maximized };
  const area = best.workArea;
  const width = Math.min(Math.max(saved.bounds.width, MIN_SIZE.width), area.width);
  const height = Math.min(Math.max(saved.bounds.height, MIN_SIZE.height), area.height);
  return {
    bounds: {
      x: clamp(saved.bounds.x, area.x, area.x + area.width - width),
      y: clamp(saved.bounds.y, area.y, area.y + area.height - height),
      width,
      height,
    },
    maximized: saved.maximized,
  };
}

/** The part of a BrowserWindow we read; `getNormalBounds` is the size it returns to when un-maximised. */
export interface MeasurableWindow {
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  isFullScreen(): boolean;
}

/** What to save when the window closes: its normal (un-maximised) bounds, so un-maximising next time restores a sensible size. */
export function captureWindowState(win: MeasurableWindow): WindowState {
  // Full screen is a mode the clerk leaves each session; remember it as maximised, not as a screen-sized window.
  return { bounds: win.getNormalBounds(), maximized: win.isMaximized() || win.isFullScreen() };
}

export function loadWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Written to a temporary file and renamed, so a crash mid-write leaves the previous state, not half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Saves the window's state each time it closes (the 'close' event still has the real bounds). */
export function rememberWindowState(win: MeasurableWindow & { on(event: 'close', listener: () => void): unknown }, file: string, save: typeof saveWindowState = saveWindowState): void {
  win.on('close', () => {
    try {
      save(file, captureWindowState(win));
    } catch (error) {
      // A read-only data folder must not stop the app from closing.
      console.warn('Could not save the window position:', error);
    }
  });
}
