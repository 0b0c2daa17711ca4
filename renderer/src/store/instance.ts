import { create } from 'zustand';
import type { InstanceAnswer } from '../../../main/contract/settings';
import type { SyncStatus } from '../../../main/contract/sync';
import { api, ApiError } from '../api/client';
import { useConnection } from './connection';
import { useFormats } from '../lib/formats';

export type Instance = InstanceAnswer['instance'];

interface InstanceState {
  instance: Instance | null;
  /** Sync as GET /v1/sync/status tells it (supplier keys); null until known or when the key may not read it. */
  sync: SyncStatus | null;
  /** Whether the engine answered the last check (the browser's own online flag alone says nothing about a LAN server). */
  online: boolean;
  lastHeard: string | null;
  refresh(): Promise<void>;
}

const CHECK_MS = 15_000;
const FOLLOW_MS = 2_000;
let followTimer: ReturnType<typeof setTimeout> | undefined;

/** What the status bar shows on every screen: this instance, online/offline, what waits, last sync. */
export const useInstance = create<InstanceState>((set, get) => ({
  instance: null,
  sync: null,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  lastHeard: null,
  async refresh() {
    const config = useConnection.getState().config;
    if (!config) return;
    try {
      const { instance } = await api(config, 'GET /v1/system/instance', { timeoutMs: 5_000 });
      set({ instance, online: true, lastHeard: new Date().toISOString() });
      if (instance.company) useFormats.getState().setCompany(instance.company);
      // Only keys allowed to read sync status ask for it (others would only collect a 403).
      if (isOfficeKey(instance.key.role)) {
        const sync = await api(config, 'GET /v1/sync/status', { timeoutMs: 5_000 });
        set({ sync: { instance: sync.instance, peers: sync.peers, seenBy: sync.seenBy ?? [], exchanging: sync.exchanging ?? null } });
        // While an exchange runs (a long catch-up), the bar follows it every few seconds, not every 15.
        if (sync.exchanging && !followTimer) {
          followTimer = setTimeout(() => {
            followTimer = undefined;
            void get().refresh();
          }, FOLLOW_MS);
        }
      }
    } catch (error) {
      if (error instanceof ApiError && error.offline) set({ online: false });
      else if (get().instance === null) set({ online: true });
    }
  },
}));

let timer: ReturnType<typeof setInterval> | undefined;
export function startInstanceChecks(): void {
  if (timer) return;
  void useInstance.getState().refresh();
  timer = setInterval(() => void useInstance.getState().refresh(), CHECK_MS);
  window.addEventListener('online', () => void useInstance.getState().refresh());
  window.addEventListener('offline', () => useInstance.setState({ online: false }));
}

/** Whether a key's role is the office's (supplier, or the desktop app's own): the one that may read sync status, pair and acknowledge. */
export function isOfficeKey(role: string | undefined): boolean {
  return role === 'supplier' || role === 'system';
}

/**
 * Whether a key may book and look bookings up (every role but a guide's check-in key and a peer's
 * sync key): the desk shows Bookings and Walk-up booking to those only, rather than a form that is
 * refused once filled in. Unknown yet (the first answer not in): shown, as before.
 */
export function mayBook(role: string | undefined): boolean {
  return role !== 'checkin' && role !== 'sync';
}

/** Whether this instance follows a hub's catalogue (a desk), as its sync status says. */
export function followsHub(sync: SyncStatus | null): boolean {
  return !!sync?.instance.catalogueOwner && sync.instance.catalogueOwner !== sync.instance.origin;
}

/** The newest successful exchange with any peer, or null when never (or no peers). */
export function lastSync(sync: SyncStatus | null): string | null {
  const times = (sync?.peers ?? []).map((p) => p.lastSuccessAt).filter((t): t is string => !!t);
  return times.length ? times.sort().at(-1)! : null;
}
