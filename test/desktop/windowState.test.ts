import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, MIN_SIZE, captureWindowState, loadWindowState, parseWindowState, placeWindow, rememberWindowState, saveWindowState, type DisplayArea, type WindowState } from '../../main/electron/windowState';

const display = (x: number, y: number, width: number, height: number): DisplayArea => ({ workArea: { x, y, width, height } });
const laptop = display(0, 0, 1440, 876); // 1440×900 minus the menu bar
const external = display(1440, -200, 2560, 1400); // to the right, taller, top above the laptop's
const saved = (x: number, y: number, width: number, height: number, maximized = false): WindowState => ({ bounds: { x, y, width, height }, maximized });

describe('where the window opens', () => {
  it('first launch: the default size, centred on the primary display', () => {
    expect(placeWindow(null, [laptop], laptop)).toEqual({ bounds: { x: 80, y: 28, width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height }, maximized: false });
  });

  it('a small first display gets a window no larger than its work area', () => {
    const small = display(0, 0, 1024, 700);
    expect(placeWindow(null, [small], small).bounds).toEqual({ x: 0, y: 0, width: 1024, height: 700 });
  });

  it('reopens exactly where it was when that place is still on a display', () => {
    const state = saved(1600, 100, 1500, 900, true);
    expect(placeWindow(state, [laptop, external], laptop)).toEqual(state);
  });

  it('moves onto the primary display, keeping its size, when its display was unplugged', () => {
    const onExternal = saved(2000, 100, 1200, 800, true);
    expect(placeWindow(onExternal, [laptop], laptop)).toEqual({ bounds: { x: 120, y: 38, width: 1200, height: 800 }, maximized: true });
  });

  it('pulls a window hanging off an edge back fully onto the display it mostly covers', () => {
    expect(placeWindow(saved(1000, 500, 1200, 800), [laptop], laptop).bounds).toEqual({ x: 240, y: 76, width: 1200, height: 800 });
    expect(placeWindow(saved(-300, -50, 1000, 700), [laptop], laptop).bounds).toEqual({ x: 0, y: 0, width: 1000, height: 700 });
  });

  it('chooses the display it overlaps most when it straddles two', () => {
    const straddling = saved(1300, 0, 1400, 800); // 140 px on the laptop, 1260 on the external one
    const { bounds } = placeWindow(straddling, [laptop, external], laptop);
    expect(bounds.x).toBeGreaterThanOrEqual(1440);
    expect(bounds).toMatchObject({ x: 1440, y: 0, width: 1400, height: 800 });
  });

  it('shrinks a window saved on a larger screen (resolution lowered) to fit, but not below the minimum', () => {
    expect(placeWindow(saved(0, 0, 3000, 2000), [laptop], laptop).bounds).toEqual({ x: 0, y: 0, width: 1440, height: 876 });
    expect(placeWindow(saved(10, 10, 200, 100), [laptop], laptop).bounds).toEqual({ x: 10, y: 10, width: MIN_SIZE.width, height: MIN_SIZE.height });
  });

  it('the whole window always lies inside one display', () => {
    const displays = [laptop, external, display(-1920, 0, 1920, 1040)];
    for (const [x, y, w, h] of [[-5000, 0, 900, 700], [0, 5000, 900, 700], [4000, 1200, 800, 600], [-100, -100, 5000, 5000], [1439, 875, 900, 700]]) {
      const { bounds } = placeWindow(saved(x, y, w, h), displays, laptop);
      const inside = displays.some(({ workArea: a }) => bounds.x >= a.x && bounds.y >= a.y && bounds.x + bounds.width <= a.x + a.width && bounds.y + bounds.height <= a.y + a.height);
      expect(inside, JSON.stringify({ x, y, w, h, bounds })).toBe(true);
    }
  });
});

describe('the saved window state', () => {
  it('ignores a missing, damaged or hand-edited file', () => {
    expect(parseWindowState(null)).toBeNull();
    expect(parseWindowState('{not json')).toBeNull();
    expect(parseWindowState('{"bounds":{"x":1,"y":2,"width":"wide","height":3}}')).toBeNull();
    expect(parseWindowState('{"bounds":{"x":1,"y":2,"width":0,"height":3}}')).toBeNull();
    expect(parseWindowState('{"bounds":{"x":1.4,"y":2,"width":900,"height":700},"maximized":"yes"}')).toEqual(saved(1, 2, 900, 700, false));
  });

  it('remembers the normal bounds of a maximised or full-screen window, and that it was maximised', () => {
    const win = { getNormalBounds: () => ({ x: 50, y: 60, width: 1000, height: 700 }), isMaximized: () => false, isFullScreen: () => true };
    expect(captureWindowState(win)).toEqual(saved(50, 60, 1000, 700, true));
  });

  it('is written when the window closes and read back at the next launch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tourdesk-window-'));
    try {
      const file = join(dir, 'window-state.json');
      expect(loadWindowState(file)).toBeNull();
      const win = Object.assign(new EventEmitter(), { getNormalBounds: () => ({ x: 30, y: 40, width: 1100, height: 760 }), isMaximized: () => true, isFullScreen: () => false });
      rememberWindowState(win, file);
      expect(loadWindowState(file)).toBeNull(); // nothing written until the window closes
      win.emit('close');
      expect(loadWindowState(file)).toEqual(saved(30, 40, 1100, 760, true));
      saveWindowState(file, saved(1, 2, 900, 700));
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(saved(1, 2, 900, 700));
      writeFileSync(file, 'garbage');
      expect(loadWindowState(file)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a data folder it cannot write to does not stop the window from closing', () => {
    const win = Object.assign(new EventEmitter(), { getNormalBounds: () => ({ x: 0, y: 0, width: 900, height: 700 }), isMaximized: () => false, isFullScreen: () => false });
    const warn = console.warn;
    console.warn = () => {};
    try {
      rememberWindowState(win, '/nonexistent/folder/window-state.json');
      expect(() => win.emit('close')).not.toThrow();
    } finally {
      console.warn = warn;
    }
  });
});
