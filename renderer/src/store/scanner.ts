import { create } from 'zustand';
import { api, ApiError, messageOf, newEventId } from '../api/client';
import type { CheckinEventBody, DayBoardSession, Manifest, ScanBody } from '../api/types';
import { buildIndex, decide, fromAnswer, markCheckedIn, type IndexEntry, type Verdict } from '../scanner/verdict';
import { addToOutbox, bumpCheckedIn, changedSessions, correctionOf, localStamp, markAttempt, removeFromOutbox, signatureOf, withPending, type Correction, type OutboxItem } from '../scanner/outbox';
import { createSuppressor, SUPPRESS_MS, type ScanSource } from '../scanner/wedge';
import { idbAll, idbDelete, idbGet, idbPut } from '../scanner/storage';
import { signal } from '../scanner/feedback';
import { useConnection } from './connection';

/** A manifest as the engine last sent it, with the day-summary counts it matched (to tell whether it changed). */
interface Held {
  manifest: Manifest;
  signature: string;
  fetchedAt: number;
}

export interface ShownVerdict extends Verdict {
  eventId: string | null;
  shownAt: number;
  /** The device does not hold this code and asked the engine; the answer is on its way. */
  checking?: boolean;
}

interface RecentScan {
  key: string;
  eventId: string | null;
  tone: Verdict['tone'];
  word: string;
  label: string;
  at: string;
  status: 'waiting' | 'sent' | 'corrected' | 'not sent';
}

interface ScannerState {
  ready: boolean;
  sessionFilter: number | null;
  sessions: DayBoardSession[];
  /** The engine's copies, as received. */
  held: Record<number, Held>;
  /** What the device shows: the engine's copies with the outbox laid over them. */
  manifests: Map<number, Manifest>;
  index: Map<string, IndexEntry>;
  outbox: OutboxItem[];
  online: boolean;
  lastHeard: string | null;
  sending: boolean;
  problem: string | null;
  verdict: ShownVerdict | null;
  recent: RecentScan[];
  corrections: Correction[];
  /** The last read the same-code rule ignored (shown small, so a double read is visibly harmless). */
  ignored: { code: string; at: number } | null;
  start(sessionFilter: number | null): Promise<void>;
  stop(): void;
  refresh(): Promise<void>;
  scan(code: string, source: ScanSource): void;
  overrideVerdict(): void;
  checkIn(participantIds: number[]): void;
  dismiss(): void;
  dismissCorrection(eventId: string): void;
  flush(): Promise<void>;
}

const REFRESH_MS = 15_000;
const RETRY_MS = 3_000;
const MAX_AGE_MS = 5 * 60_000;
const ASK_TIMEOUT_MS = 1_500;
const suppressor = createSuppressor();
let timers: ReturnType<typeof setInterval>[] = [];

const config = () => useConnection.getState().config;
const device = () => useConnection.getState().device || undefined;

function shown(held: Record<number, Held>, outbox: readonly OutboxItem[]) {
  const manifests = new Map<number, Manifest>();
  for (const [id, h] of Object.entries(held)) manifests.set(Number(id), withPending(h.manifest, outbox));
  return { manifests, index: buildIndex(manifests.values()) };
}

const isUnreachable = (error: unknown) => error instanceof ApiError && (error.offline || error.status >= 500 || error.status === 429 || error.status === 401 || error.status === 403);

export const useScanner = create<ScannerState>((set, get) => {
  function remember(verdict: Verdict, eventId: string | null, status: RecentScan['status']) {
    const label = verdict.people.length ? verdict.people.map((p) => p.name).join(', ') : verdict.code;
    const entry: RecentScan = { key: eventId ?? `${verdict.code}-${Date.now()}`, eventId, tone: verdict.tone, word: verdict.word, label, at: localStamp(new Date()).slice(11, 19), status };
    set({ recent: [entry, ...get().recent].slice(0, 12) });
  }
  function setRecent(eventId: string, status: RecentScan['status']) {
    // A corrected scan turns red in the strip: what the device showed no longer stands.
    set({ recent: get().recent.map((r) => (r.eventId === eventId ? { ...r, status, ...(status === 'corrected' ? { tone: 'red' as const, word: 'CORRECTED' } : {}) } : r)) });
  }
  function show(verdict: Verdict, eventId: string | null, checking = false) {
    set({ verdict: { ...verdict, eventId, shownAt: Date.now(), checking }, ignored: null });
    if (!checking) signal(verdict.tone);
  }
  async function enqueue(item: OutboxItem) {
    const outbox = addToOutbox(get().outbox, item);
    set({ outbox, ...shown(get().held, outbox) });
    await idbPut('outbox', item.eventId, item);
    void get().flush();
  }
  /**
   * Serving all of today's departures, a scan is for the day they are on (the engine's today, as the
   * day list it answered says; this device's date when there are none): a ticket for Sunday is not
   * checked in on Friday, the engine answers "Another day". Serving one departure: none (the session says it).
   */
  function servedDay(sessionFilter: number | null): Pick<ScanBody, 'day'> {
    if (sessionFilter !== null) return {};
    const first = get().sessions[0];
    return { day: first ? first.startTimeLocal.slice(0, 10) : localStamp(new Date()).slice(0, 10) };
  }
  function scanItem(body: Omit<ScanBody, 'eventId' | 'occurredAt' | 'device'>, local: OutboxItem['local']): OutboxItem {
    const eventId = newEventId();
    return { eventId, kind: 'scan', body: { ...body, eventId, occurredAt: new Date().toISOString(), device: device() }, local, queuedAt: new Date().toISOString(), attempts: 0 };
  }
  /**
   * What the engine recorded goes into the device's copy of its manifest, and the copy's day
   * counts move by as much, so the next refresh refetches it only if someone else changed it too.
   */
  function absorb(sessionId: number | null, participantIds: number[], eventIdOf: (pid: number) => string, at: string, deviceName: string | undefined) {
    const h = sessionId !== null ? get().held[sessionId] : undefined;
    if (!h || !participantIds.length) return;
    const fresh = participantIds.filter((id) => h.manifest.bookings.some((b) => b.participants.some((p) => p.id === id && p.checkin.state !== 'CHECKED_IN')));
    const manifest = markCheckedIn(h.manifest, fresh, { at, atLocal: localStamp(new Date(at)), device: deviceName ?? null, eventIdOf });
    const next = { ...h, manifest, signature: bumpCheckedIn(h.signature, fresh.length) };
    void idbPut('manifests', sessionId!, next);
    const held = { ...get().held, [sessionId!]: next };
    set({ held, ...shown(held, get().outbox) });
  }
  async function fetchManifest(id: number, signature: string) {
    const c = config();
    if (!c) return;
    const { manifest } = await api(c, 'GET /v1/manifest', { query: { sessionId: id }, timeoutMs: 10_000 });
    const h: Held = { manifest, signature, fetchedAt: Date.now() };
    await idbPut('manifests', id, h);
    const held = { ...get().held, [id]: h };
    set({ held, ...shown(held, get().outbox) });
  }

  return {
    ready: false,
    sessionFilter: null,
    sessions: [],
    held: {},
    manifests: new Map(),
    index: new Map(),
    outbox: [],
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    lastHeard: null,
    sending: false,
    problem: null,
    verdict: null,
    recent: [],
    corrections: [],
    ignored: null,

    async start(sessionFilter) {
      set({ sessionFilter });
      if (!get().ready) {
        // The device's copy first: the scanner works before (or without) the engine answering.
        const [stored, outbox, day, lastHeard] = await Promise.all([
          idbAll<Held>('manifests'),
          idbAll<OutboxItem>('outbox'),
          idbGet<DayBoardSession[]>('meta', 'day'),
          idbGet<string>('meta', 'lastHeard'),
        ]);
        const held: Record<number, Held> = {};
        for (const h of stored) held[h.manifest.session.id] = h;
        outbox.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt));
        set({ held, outbox, sessions: day ?? [], lastHeard: lastHeard ?? null, ready: true, ...shown(held, outbox) });
      }
      get().stop();
      timers = [setInterval(() => void get().refresh(), REFRESH_MS), setInterval(() => get().outbox.length && void get().flush(), RETRY_MS)];
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      await get().flush();
      await get().refresh();
    },
    stop() {
      for (const t of timers) clearInterval(t);
      timers = [];
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    },

    /** Only what changed: the day summary (small) says which sessions moved; only those manifests are fetched again. */
    async refresh() {
      const c = config();
      if (!c) return;
      try {
        const { sessions } = await api(c, 'GET /v1/manifest/day', { query: { limit: 200 }, timeoutMs: 5_000 });
        const lastHeard = new Date().toISOString();
        set({ sessions, online: true, lastHeard });
        void idbPut('meta', 'day', sessions);
        void idbPut('meta', 'lastHeard', lastHeard);
        const held = get().held;
        const stale = sessions.filter((s) => held[s.id] && Date.now() - held[s.id].fetchedAt > MAX_AGE_MS).map((s) => s.id);
        const wanted = new Set([...changedSessions(sessions, new Map(Object.entries(held).map(([k, v]) => [Number(k), v]))), ...stale]);
        const filter = get().sessionFilter;
        if (filter !== null && !sessions.some((s) => s.id === filter) && !held[filter]) wanted.add(filter);
        for (const id of wanted) {
          const summary = sessions.find((s) => s.id === id);
          await fetchManifest(id, summary ? signatureOf(summary) : 'other day');
        }
        // Yesterday's copies go; the served session stays even when it is not today's.
        const keep = new Set([...sessions.map((s) => s.id), ...(filter !== null ? [filter] : [])]);
        const gone = Object.keys(get().held).map(Number).filter((id) => !keep.has(id));
        if (gone.length) {
          const next = { ...get().held };
          for (const id of gone) {
            delete next[id];
            void idbDelete('manifests', id);
          }
          set({ held: next, ...shown(next, get().outbox) });
        }
        if (get().outbox.length) void get().flush();
      } catch (error) {
        if (error instanceof ApiError && !isUnreachable(error)) set({ problem: messageOf(error) });
        else set({ online: false });
      }
    },

    scan(raw, source) {
      const code = raw.trim();
      if (!code) return;
      if (!suppressor.shouldFire(code, Date.now(), SUPPRESS_MS[source])) {
        set({ ignored: { code, at: Date.now() } });
        return;
      }
      const { manifests, index, sessionFilter } = get();
      const verdict = decide({ code, manifests, index, sessionFilter });
      if (verdict.kind === 'UNKNOWN_CODE') {
        // Not in this device's copy (an order code, a booking made a minute ago): ask the engine when
        // it answers, for at most 1.5 s. Offline, nothing is queued: a refused person is not admitted later.
        if (!get().online) {
          show(verdict, null);
          remember(verdict, null, 'not sent');
          return;
        }
        const item = scanItem({ code, sessionId: sessionFilter ?? undefined, ...servedDay(sessionFilter) }, { admit: false, result: 'UNKNOWN_CODE', label: code, sessionId: sessionFilter, participantIds: [] });
        show({ ...verdict, tone: 'blue', word: 'CHECKING…', message: 'Not on this device; asking TourDesk' }, item.eventId, true);
        void enqueue(item);
        setTimeout(() => {
          const current = get().verdict;
          if (current?.eventId === item.eventId && current.checking) {
            show(verdict, item.eventId);
            remember(verdict, item.eventId, 'waiting');
          }
        }, ASK_TIMEOUT_MS);
        return;
      }
      if (!verdict.admit) {
        show(verdict, null);
        remember(verdict, null, 'not sent');
        return;
      }
      const label = verdict.people.map((p) => p.name).join(', ');
      const item = scanItem({ code, sessionId: verdict.sessionId ?? undefined, ...servedDay(sessionFilter) }, { admit: true, result: verdict.kind, label, sessionId: verdict.sessionId, participantIds: verdict.participantIds });
      show(verdict, item.eventId);
      remember(verdict, item.eventId, 'waiting');
      void enqueue(item);
    },

    /** The deliberate second action: the engine records which rule was overridden, by which key and device. */
    overrideVerdict() {
      const verdict = get().verdict;
      if (!verdict?.override) return;
      const filter = get().sessionFilter;
      // A wrong-session override names the session scanned at, so the record says where they were admitted.
      const sessionId = verdict.kind === 'WRONG_SESSION' && filter !== null ? filter : (verdict.sessionId ?? undefined);
      const label = verdict.people.map((p) => p.name).join(', ');
      const item = scanItem({ code: verdict.code, sessionId, override: true, ...servedDay(filter) }, { admit: true, result: verdict.override.rule, label, sessionId: verdict.sessionId, participantIds: verdict.participantIds });
      const admitted: Verdict = { ...verdict, kind: 'CHECKED_IN', tone: 'green', word: 'CHECKED IN', message: `Admitted by override: ${verdict.override.label.toLowerCase()}`, admit: true, override: null, people: verdict.people.map((p) => ({ ...p, checkedIn: true })) };
      show(admitted, item.eventId);
      remember(admitted, item.eventId, 'waiting');
      void enqueue(item);
    },

    /** Check in some or all of a booking: with the order code when that was scanned, else one event per person. */
    checkIn(participantIds) {
      const verdict = get().verdict;
      if (!verdict || !participantIds.length || verdict.sessionId === null) return;
      const sessionId = verdict.sessionId;
      const names = [...verdict.people, ...verdict.others].filter((p) => participantIds.includes(p.id)).map((p) => p.name);
      const label = names.join(', ');
      const local = { admit: true, result: 'CHECKED_IN', label, sessionId, participantIds };
      const admitted: Verdict = { ...verdict, kind: 'CHECKED_IN', tone: 'green', word: 'CHECKED IN', message: `${participantIds.length} checked in · ${verdict.booking?.orderNumber ?? ''}`, admit: true, others: [], override: null, people: [...verdict.people, ...verdict.others.map((o) => ({ ...o, checkedIn: false }))].map((p) => ({ ...p, checkedIn: p.checkedIn || participantIds.includes(p.id) })) };
      if (verdict.kind === 'GROUP') {
        const item = scanItem({ code: verdict.code, sessionId, participantIds }, local);
        show(admitted, item.eventId);
        remember(admitted, item.eventId, 'waiting');
        void enqueue(item);
        return;
      }
      show(admitted, null);
      for (const participantId of participantIds) {
        const eventId = newEventId();
        const body: CheckinEventBody = { eventId, kind: 'CHECK_IN', sessionId, participantId, occurredAt: new Date().toISOString(), device: device() };
        const name = names[participantIds.indexOf(participantId)] ?? '';
        remember({ ...admitted, people: [{ id: participantId, name, checkedIn: true }] }, eventId, 'waiting');
        void enqueue({ eventId, kind: 'event', body, local: { ...local, label: name, participantIds: [participantId] }, queuedAt: new Date().toISOString(), attempts: 0 });
      }
    },

    dismiss() {
      set({ verdict: null });
    },
    dismissCorrection(eventId) {
      set({ corrections: get().corrections.filter((c) => c.eventId !== eventId) });
    },

    /** Sends the outbox in order, one item at a time; stops at the first failure and tries again later. */
    async flush() {
      const c = config();
      if (!c || get().sending) return;
      set({ sending: true });
      try {
        while (get().outbox.length) {
          const item = get().outbox[0];
          try {
            if (item.kind === 'scan') {
              const { scan } = await api(c, 'POST /v1/manifest/scan', { body: item.body, timeoutMs: 5_000 });
              // Only a scan of a session's code checks anyone in (an unknown or unscheduled code names no session).
              const sessionScan = 'booking' in scan ? scan : null;
              absorb(item.local.sessionId ?? sessionScan?.belongsTo?.sessionId ?? null, sessionScan?.checkedInParticipantIds ?? [], (pid) => `${item.eventId}.${pid}`, item.body.occurredAt, item.body.device);
              const current = get().verdict;
              if (current?.eventId === item.eventId && current.checking) {
                // The answer came in time: it is the verdict (no correction, the device had not decided).
                const verdict = fromAnswer(item.body.code, scan);
                show(verdict, item.eventId);
                remember(verdict, item.eventId, 'sent');
              } else {
                const correction = correctionOf(item, scan, new Date());
                if (correction) {
                  set({ corrections: [correction, ...get().corrections].slice(0, 20) });
                  setRecent(item.eventId, 'corrected');
                  signal('red');
                } else setRecent(item.eventId, 'sent');
              }
            } else {
              const { events } = await api(c, 'POST /v1/manifest/events', { body: { events: [item.body] }, timeoutMs: 5_000 });
              const rejected = events.find((e) => e.result === 'REJECTED');
              if (rejected) {
                set({ corrections: [{ eventId: item.eventId, label: item.local.label, local: 'checked in on this device', server: 'not recorded', message: rejected.message ?? 'Refused', at: new Date().toISOString() }, ...get().corrections] });
                setRecent(item.eventId, 'corrected');
              } else {
                setRecent(item.eventId, 'sent');
                absorb(item.local.sessionId, item.local.participantIds, () => item.eventId, item.body.occurredAt, item.body.device);
              }
            }
            const outbox = removeFromOutbox(get().outbox, item.eventId);
            await idbDelete('outbox', item.eventId);
            const lastHeard = new Date().toISOString();
            set({ outbox, online: true, lastHeard, problem: null });
            void idbPut('meta', 'lastHeard', lastHeard);
          } catch (error) {
            if (isUnreachable(error)) {
              const outbox = markAttempt(get().outbox, item.eventId, messageOf(error));
              set({ outbox, online: !(error instanceof ApiError && error.offline), problem: error instanceof ApiError && !error.offline ? messageOf(error) : null });
              void idbPut('outbox', item.eventId, outbox[0]);
              break;
            }
            // The engine refused the item itself (malformed, eventId reused): resending cannot help.
            const outbox = removeFromOutbox(get().outbox, item.eventId);
            await idbDelete('outbox', item.eventId);
            set({ outbox, problem: messageOf(error) });
            setRecent(item.eventId, 'corrected');
          }
        }
      } finally {
        set({ sending: false });
      }
    },
  };
});

function onOnline() {
  void useScanner.getState().flush();
  void useScanner.getState().refresh();
}
function onOffline() {
  useScanner.setState({ online: false });
}
