import { create } from 'zustand';
import { api, messageOf, newEventId } from '../api/client';
import type { CheckinEventBody, EventOverridableRule, Manifest } from '../api/types';
import { useConnection } from './connection';
import { currentDeviceName } from './deviceName';
import { onSendOutcome, useOutbox } from './outbox';
import { applyEvents } from '../model/deskManifest';

/** How long the undo toast stays after a check-in. */
const UNDO_TOAST_MS = 10_000;
/** How often the desk asks whether the manifest changed (a few aggregates, not the manifest). */
export const POLL_MS = 5_000;

interface UndoToast {
  id: string;
  label: string;
  eventIds: string[];
  until: number;
}

/** A check-in the engine refused after all (a race with another desk): named, with the override offered. */
export interface Refused {
  eventId: string;
  message: string;
  rule: string | null;
  participantId: number | null;
}

type NewEvent = Omit<CheckinEventBody, 'eventId' | 'occurredAt' | 'device' | 'sessionId'>;

interface ManifestState {
  sessionId: number | null;
  /** The engine's copy with this desk's answered events applied (what the engine holds now). */
  manifest: Manifest | null;
  loading: boolean;
  error: string | null;
  toast: UndoToast | null;
  refused: Refused[];
  load(sessionId: number): Promise<void>;
  /** Asks for the version; fetches the manifest only when it moved. */
  poll(): Promise<void>;
  /** Queues (so it survives being offline) and sends one or more events of this session. */
  record(events: NewEvent | NewEvent[]): Promise<string[]>;
  checkIn(participantIds: number[], label: string, override?: EventOverridableRule[]): Promise<void>;
  undo(eventIds: string[]): Promise<void>;
  dismissToast(): void;
  dismissRefused(eventId: string): void;
}

let inFlight: { sessionId: number; promise: Promise<void> } | null = null;

export const useManifest = create<ManifestState>((set, get) => ({
  sessionId: null,
  manifest: null,
  loading: false,
  error: null,
  toast: null,
  refused: [],
  load(sessionId) {
    // One read at a time per session: a second caller (React's double effect, a poll) shares it.
    if (inFlight?.sessionId === sessionId) return inFlight.promise;
    const promise = (async () => {
      const config = useConnection.getState().config;
      if (!config) return;
      if (get().sessionId !== sessionId) set({ manifest: null, toast: null, refused: [] });
      set({ sessionId, loading: true, error: null });
      try {
        const { manifest } = await api(config, 'GET /v1/manifest', { query: { sessionId } });
        if (get().sessionId === sessionId) set({ manifest, loading: false });
      } catch (error) {
        set({ loading: false, error: messageOf(error) });
      } finally {
        inFlight = null;
      }
    })();
    inFlight = { sessionId, promise };
    return promise;
  },
  async poll() {
    const { sessionId, manifest, loading } = get();
    const config = useConnection.getState().config;
    if (!config || sessionId === null || loading) return;
    try {
      const { manifestVersion } = await api(config, 'GET /v1/manifest/version', { query: { sessionId } });
      if (manifestVersion.version !== get().manifest?.version || !manifest) await get().load(sessionId);
    } catch {
      // Offline: the status bar says so; the copy on screen stays.
    }
  },
  async record(one) {
    const partials = Array.isArray(one) ? one : [one];
    const sessionId = get().sessionId;
    if (sessionId === null) return [];
    const device = currentDeviceName();
    const now = new Date().toISOString();
    const events: CheckinEventBody[] = partials.map((p) => ({ ...p, sessionId, eventId: newEventId(), occurredAt: now, device }));
    // A check-in undone from its row: its toast goes too (its Undo would undo nothing, and it still said "checked in").
    const undone = new Set(partials.map((p) => p.undoesEventId).filter(Boolean));
    if (get().toast?.eventIds.some((id) => undone.has(id))) set({ toast: null });
    // Persisted at once, then sent as one batch.
    const queuedAt = new Date().toISOString();
    await useOutbox.getState().add(events.map((body) => ({ eventId: body.eventId, kind: 'event' as const, body, queuedAt, attempts: 0 })));
    return events.map((e) => e.eventId);
  },
  async checkIn(participantIds, label, override) {
    if (!participantIds.length) return;
    const ids = await get().record(participantIds.map((participantId) => ({ kind: 'CHECK_IN' as const, participantId, ...(override?.length ? { override } : {}) })));
    set({ toast: { id: ids[0], label, eventIds: ids, until: Date.now() + UNDO_TOAST_MS } });
  },
  async undo(eventIds) {
    set({ toast: null });
    await get().record(eventIds.map((undoesEventId) => ({ kind: 'UNDO' as const, undoesEventId })));
  },
  dismissToast() {
    set({ toast: null });
  },
  dismissRefused(eventId) {
    set({ refused: get().refused.filter((r) => r.eventId !== eventId) });
  },
}));

// The engine answered a batch: apply what it recorded to our copy and adopt its new version when
// nothing else changed in between; a refused check-in is shown, naming who and why.
onSendOutcome((outcome) => {
  const { manifest } = useManifest.getState();
  if (!manifest || outcome.kind !== 'events') return;
  const { answer } = outcome;
  const sent = outcome.items.map((q) => q.body);
  const recorded = new Set(answer.events.filter((a) => a.result === 'RECORDED').map((a) => a.eventId));
  const refused = answer.events.filter((a) => a.result === 'REJECTED');
  const versions = answer.manifestVersions?.find((v) => v.sessionId === manifest.session.id);
  const applied = applyEvents(manifest, sent.filter((e) => recorded.has(e.eventId)));
  const inStep = versions && versions.before === manifest.version;
  useManifest.setState({
    manifest: { ...applied, version: inStep ? versions.after : manifest.version },
    refused: [
      ...useManifest.getState().refused,
      ...refused.map((r) => ({ eventId: r.eventId, message: r.message ?? 'Refused', rule: r.overridable ? (r.rule ?? null) : null, participantId: sent.find((e) => e.eventId === r.eventId)?.participantId ?? null })),
    ],
  });
  // Someone else changed the manifest meanwhile, or the engine raised a conflict only it derives: fetch it once.
  if (versions && (!inStep || answer.events.some((a) => 'conflict' in a && a.conflict))) void useManifest.getState().load(manifest.session.id);
});
