import { api, type ApiConfig } from '../api/client';
import type { DayBoardSession } from '../api/types';
import { changesSomething, mergeCopy, saveCopy, windowServing, type WindowCopy, type WindowSetting } from './copies';
import { dayOfSession } from './sessionDay';

/** What the scanner holds that decides which window to ask for and from where. */
export interface HeldWindow {
  held: WindowCopy | null;
  window: WindowSetting;
  sessionFilter: number | null;
  sessions: readonly DayBoardSession[];
}

/**
 * The window copy brought up to date: the changes since the held cursor (for the same window), or the
 * whole window. A quiet refresh moves only the cursor: kept in memory, written with the next change.
 * The caller holds it in memory even when the device cannot store it (full, blocked): it still
 * decides the page's scans.
 */
export async function refreshedCopy(config: ApiConfig, today: string, { held, window, sessionFilter, sessions }: HeldWindow): Promise<WindowCopy> {
  const { from, to } = windowServing(today, window, sessionFilter === null ? null : await dayOfSession(config, sessionFilter, held, sessions));
  const since = held && held.from === from && held.to === to && held.cursor ? { since: held.cursor } : {};
  const { deviceCopy } = await api(config, 'GET /v1/checkin/device-copy', { query: { from, to, ...since }, timeoutMs: 20_000 });
  const next = mergeCopy(held, deviceCopy, Date.now());
  if (changesSomething(deviceCopy) || !held) await saveCopy(next);
  return next;
}
