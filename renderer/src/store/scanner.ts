import { create } from 'zustand';
import { api, ApiError, messageOf, newEventId } from '../api/client';
import type { CheckinEventBody, DayBoardSession, EventAnswer, Manifest, ScanAnswer, ScanBody } from '../api/types';
import { buildIndex, decide, fromAnswer, markCheckedIn, type IndexEntry, type Verdict } from '../scanner/verdict';
import { bumpCheckedIn, correctionOf, localStamp, rejectionOf, signatureOf, withPending, type Correction } from '../scanner/pending';
import type { EventItem, OutboxItem, ScanItem } from '../outbox/items';
import type { SendOutcome } from '../outbox/sender';
import { createSuppressor, SUPPRESS_MS, type ScanSource } from '../scanner/wedge';
import { copiesToDrop, copiesToFetch, dropCopy, loadCopies, saveCopy, saveDay, saveLastHeard, type Held } from '../scanner/copies';
import { signal } from '../scanner/feedback';
import { withRecent, withStatus, type RecentScan, type ShownVerdict } from '../scanner/recent';
import { useConnection } from './connection';
import { onSendOutcome, useOutbox } from './outbox';

interface ScannerState {
  ready: boolean;
  sessionFilter: number | null;
  sessions: DayBoardSession[];
  /** The engine's copies, as received. */
  held: Record<number, Held>;
  /** What the device shows: the engine's copies with the outbox laid over them. */
  manifests: Map<number, Manifest>;
  index: Map<string, IndexEntry>;
  online: boolean;
  lastHeard: string | null;
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
  /** What came of a send from the outbox: the engine's answer goes into the copies, the verdict or a correction. */
  receive(outcome: SendOutcome): void;
}

const REFRESH_MS = 15_000;
const ASK_TIMEOUT_MS = 1_500;
const suppressor = createSuppressor();
let timers: ReturnType<typeof setInterval>[] = [];

const config = () => useConnection.getState().config;
const device = () => useConnection.getState().device || undefined;

function shown(held: Record<number, Held>, outbox: readonly OutboxItem[] = useOutbox.getState().items) {
  const manifests = new Map<number, Manifest>();
  for (const [id, h] of Object.entries(held)) manifests.set(Number(id), withPending(h.manifest, outbox));
  return { manifests, index: buildIndex(manifests.values()) };
}

const isUnreachable = (error: unknown) => error instanceof ApiError && (error.offline || error.status >= 500 || error.status === 429 || error.status === 401 || error.status === 403);
const SCANNED_NOW = { queuedAt: '', attempts: 0 };

export const useScanner = create<ScannerState>((set, get) => {
  const remember = (verdict: Verdict, eventId: string | null, status: RecentScan['status']) => set({ recent: withRecent(get().recent, verdict, eventId, status, new Date()) });
  const setRecent = (eventId: string, status: RecentScan['status']) => set({ recent: withStatus(get().recent, eventId, status) });
  function show(verdict: Verdict, eventId: string | null, checking = false) {
    set({ verdict: { ...verdict, eventId, shownAt: Date.now(), checking }, ignored: null });
    if (!checking) signal(verdict.tone);
  }
  function enqueue(item: OutboxItem) {
    void useOutbox.getState().add([{ ...item, queuedAt: new Date().toISOString() }]);
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
  function scanItem(body: Omit<ScanBody, 'eventId' | 'occurredAt' | 'device'>, local: NonNullable<OutboxItem['local']>): ScanItem {
    const eventId = newEventId();
    return { eventId, kind: 'scan', body: { ...body, eventId, occurredAt: new Date().toISOString(), device: device() }, local, ...SCANNED_NOW };
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
    void saveCopy(sessionId!, next);
    const held = { ...get().held, [sessionId!]: next };
    set({ held, ...shown(held) });
  }
  async function fetchManifest(id: number, signature: string) {
    const c = config();
    if (!c) return;
    const { manifest } = await api(c, 'GET /v1/manifest', { query: { sessionId: id }, timeoutMs: 10_000 });
    const h: Held = { manifest, signature, fetchedAt: Date.now() };
    await saveCopy(id, h);
    const held = { ...get().held, [id]: h };
    set({ held, ...shown(held) });
  }

  function scanAnswered(item: ScanItem, scan: ScanAnswer) {
    // Only a scan of a session's code checks anyone in (an unknown or unscheduled code names no session).
    const sessionScan = 'booking' in scan ? scan : null;
    absorb(item.local?.sessionId ?? sessionScan?.belongsTo?.sessionId ?? null, sessionScan?.checkedInParticipantIds ?? [], (pid) => `${item.eventId}.${pid}`, item.body.occurredAt, item.body.device);
    const current = get().verdict;
    if (current?.eventId === item.eventId && current.checking) {
      // The answer came in time: it is the verdict (no correction, the device had not decided).
      const verdict = fromAnswer(item.body.code, scan);
      show(verdict, item.eventId);
      remember(verdict, item.eventId, 'sent');
      return;
    }
    const correction = correctionOf(item, scan, new Date());
    if (correction) {
      set({ corrections: [correction, ...get().corrections].slice(0, 20) });
      setRecent(item.eventId, 'corrected');
      signal('red');
    } else setRecent(item.eventId, 'sent');
  }
  /** A check-in the scanner sent as an event (the desk's own events carry no local outcome and are the desk's business). */
  function eventAnswered(item: EventItem, answer: EventAnswer | undefined) {
    if (!item.local) return;
    if (answer?.result === 'REJECTED') {
      set({ corrections: [rejectionOf(item.eventId, item.local.label, answer.message, new Date()), ...get().corrections] });
      setRecent(item.eventId, 'corrected');
      return;
    }
    setRecent(item.eventId, 'sent');
    absorb(item.local.sessionId, item.local.participantIds, () => item.eventId, item.body.occurredAt, item.body.device);
  }

  return {
    ready: false,
    sessionFilter: null,
    sessions: [],
    held: {},
    manifests: new Map(),
    index: new Map(),
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    lastHeard: null,
    problem: null,
    verdict: null,
    recent: [],
    corrections: [],
    ignored: null,

    async start(sessionFilter) {
      set({ sessionFilter });
      if (!get().ready) {
        // The device's copy first: the scanner works before (or without) the engine answering.
        const { held, sessions, lastHeard } = await loadCopies();
        set({ held, sessions, lastHeard, ready: true, ...shown(held) });
      }
      get().stop();
      timers = [setInterval(() => void get().refresh(), REFRESH_MS)];
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      await useOutbox.getState().flush();
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
        void saveDay(sessions);
        void saveLastHeard(lastHeard);
        const filter = get().sessionFilter;
        const wanted = copiesToFetch(sessions, get().held, filter, Date.now());
        for (const id of wanted) {
          const summary = sessions.find((s) => s.id === id);
          await fetchManifest(id, summary ? signatureOf(summary) : 'other day');
        }
        const gone = copiesToDrop(sessions, get().held, filter);
        if (gone.length) {
          const next = { ...get().held };
          for (const id of gone) {
            delete next[id];
            void dropCopy(id);
          }
          set({ held: next, ...shown(next) });
        }
        if (useOutbox.getState().items.length) void useOutbox.getState().flush();
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
        void enqueue({ eventId, kind: 'event', body, local: { ...local, label: name, participantIds: [participantId] }, ...SCANNED_NOW });
      }
    },

    dismiss() {
      set({ verdict: null });
    },
    dismissCorrection(eventId) {
      set({ corrections: get().corrections.filter((c) => c.eventId !== eventId) });
    },

    receive(outcome) {
      if (outcome.kind === 'unreachable') {
        set({ online: !outcome.error.offline, problem: outcome.error.offline ? null : messageOf(outcome.error) });
        return;
      }
      if (outcome.kind === 'refused') {
        // The engine refused the items themselves (malformed, eventId reused): resending cannot help.
        set({ problem: outcome.message });
        for (const item of outcome.items) setRecent(item.eventId, 'corrected');
        return;
      }
      const lastHeard = new Date().toISOString();
      set({ online: true, lastHeard, problem: null });
      void saveLastHeard(lastHeard);
      if (outcome.kind === 'scan') scanAnswered(outcome.item, outcome.scan);
      else for (const item of outcome.items) eventAnswered(item, outcome.answer.events.find((a) => a.eventId === item.eventId));
    },
  };
});

function onOnline() {
  void useOutbox.getState().flush();
  void useScanner.getState().refresh();
}

onSendOutcome((outcome) => useScanner.getState().receive(outcome));
// What the device shows is the engine's copies with the outbox laid over them, so it follows the outbox.
useOutbox.subscribe((now, before) => {
  if (now.items !== before.items && useScanner.getState().ready) useScanner.setState(shown(useScanner.getState().held, now.items));
});
function onOffline() {
  useScanner.setState({ online: false });
}
