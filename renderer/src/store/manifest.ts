import { create } from 'zustand';
import { api, messageOf, newEventId } from '../api/client';
import type { CheckinEvent, Manifest } from '../api/types';
import { useConnection } from './connection';
import { useQueue } from './queue';

interface ManifestState {
  sessionId: number | null;
  manifest: Manifest | null;
  loading: boolean;
  error: string | null;
  load(sessionId: number): Promise<void>;
  /** A CHECK_IN, UNDO, CLOSE or REOPEN made here: queued (so it survives being offline), then sent. */
  record(event: Omit<CheckinEvent, 'eventId' | 'occurredAt' | 'device' | 'sessionId'>): Promise<void>;
}

export const useManifest = create<ManifestState>((set, get) => ({
  sessionId: null,
  manifest: null,
  loading: false,
  error: null,
  async load(sessionId) {
    const config = useConnection.getState().config;
    if (!config) return;
    if (get().sessionId !== sessionId) set({ manifest: null });
    set({ sessionId, loading: true, error: null });
    try {
      const { manifest } = await api<{ manifest: Manifest }>(config, 'GET', `/v1/manifest?sessionId=${sessionId}`);
      if (get().sessionId === sessionId) set({ manifest, loading: false });
    } catch (error) {
      set({ loading: false, error: messageOf(error) });
    }
  },
  async record(partial) {
    const sessionId = get().sessionId;
    if (sessionId === null) return;
    const event: CheckinEvent = { ...partial, sessionId, eventId: newEventId(), occurredAt: new Date().toISOString(), device: useConnection.getState().device || undefined };
    await useQueue.getState().add(event);
    if (useQueue.getState().queue.length === 0) await get().load(sessionId);
  },
}));
