import { create } from 'zustand';
import { api, ApiError, messageOf } from '../api/client';
import type { DayBoardSession, EventAnswer, ScanAnswer } from '../api/types';
import { buildIndex, decide, type IndexEntry, type Verdict } from '../scanner/verdict';
import { rejectionOf, withPending, type Correction } from '../scanner/pending';
import type { EventItem, OutboxItem, ScanItem } from '../outbox/items';
import { admittedByOverride, admittedFromBooking, checkingVerdict, checkInItem, scanItem, servedDay } from '../scanner/scanItems';
import { recordedByEvent, recordedByScan, scanAnswerShown, withRecorded, type Recorded } from '../scanner/answers';
import type { SendOutcome } from '../outbox/sender';
import { createSuppressor, SUPPRESS_MS, UNREADABLE, type ScanSource } from '../scanner/wedge';
import { cleanCode, unreadableVerdict } from '../scanner/codeInput';
import { cancelledAdmitOf, cancelledCheckIns, type CancelledAdmit } from '../scanner/cancelledAdmit';
import { emptyCopy, loadCopy, saveCopy, saveDay, saveLastHeard, saveWindow, validWindow, DEFAULT_WINDOW, type WindowCopy, type WindowSetting } from '../scanner/copies';
import { refreshedCopy } from '../scanner/windowRefresh';
import { signal } from '../scanner/feedback';
import { withRecent, withStatus, type RecentScan, type ShownVerdict } from '../scanner/recent';
import { useConnection } from './connection';
import { currentDeviceName } from './deviceName';
import { useInstance } from './instance';
import { onSendOutcome, useOutbox } from './outbox';

interface ScannerState {
  ready: boolean;
  sessionFilter: number | null;
  sessions: DayBoardSession[];
  /** The engine's window copy, as received (null before the first answer on this device). */
  held: WindowCopy | null;
  /** What the device shows and decides from: the engine's copy with the outbox laid over it. */
  copy: WindowCopy;
  index: Map<string, IndexEntry[]>;
  /** Which days the device keeps around today (a setting of this device). */
  window: WindowSetting;
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
  setWindow(setting: WindowSetting): Promise<void>;
  scan(code: string, source: ScanSource): void;
  overrideVerdict(): void;
  /** A cancelled booking found by search, admitted by the check-in naming its cancellation (the one way the rules allow). */
  admitCancelled(): void;
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
const device = () => currentDeviceName();

const NO_COPY = emptyCopy('', '');
// The index names codes only, which the outbox does not change: built once per copy from the engine, not on every scan.
let indexed: { of: WindowCopy; index: Map<string, IndexEntry[]> } | null = null;
function shown(held: WindowCopy | null, outbox: readonly OutboxItem[] = useOutbox.getState().items) {
  const base = held ?? NO_COPY;
  if (indexed?.of !== base) indexed = { of: base, index: buildIndex(base) };
  return { copy: withPending(base, outbox), index: indexed.index };
}

const isUnreachable = (error: unknown) => error instanceof ApiError && (error.offline || error.status >= 500 || error.status === 429 || error.status === 401 || error.status === 403);

export const useScanner = create<ScannerState>((set, get) => {
  const remember = (verdict: Verdict, eventId: string | null, status: RecentScan['status']) => set({ recent: withRecent(get().recent, verdict, eventId, status, new Date()) });
  const setRecent = (eventId: string, status: RecentScan['status']) => set({ recent: withStatus(get().recent, eventId, status) });
  function show(verdict: Verdict & { cancelledAdmit?: CancelledAdmit }, eventId: string | null, checking = false) {
    set({ verdict: { ...verdict, eventId, shownAt: Date.now(), checking }, ignored: null });
    if (!checking) signal(verdict.tone);
  }
  function enqueue(item: OutboxItem) {
    void useOutbox.getState().add([{ ...item, queuedAt: new Date().toISOString() }]);
  }
  const dayOf = (sessionFilter: number | null) => servedDay(sessionFilter, get().sessions, new Date());
  function scanAnswered(item: ScanItem, scan: ScanAnswer) {
    absorb(recordedByScan(item, scan));
    const answer = scanAnswerShown(item, scan, get().verdict, new Date());
    if (answer.kind === 'verdict') {
      show(answer.verdict, item.eventId);
      remember(answer.verdict, item.eventId, 'sent');
    } else if (answer.kind === 'correction') {
      set({ corrections: [answer.correction, ...get().corrections].slice(0, 20) });
      setRecent(item.eventId, 'corrected');
      signal('red');
    } else setRecent(item.eventId, 'sent');
  }
  /** A check-in the scanner sent as an event (the desk's own events carry no local outcome and are the desk's business). */
  function eventAnswered(item: EventItem, answer: EventAnswer | undefined) {
    const local = item.local;
    if (!local) return;
    if (answer?.result === 'REJECTED') {
      set({ corrections: [rejectionOf(item.eventId, local.label, answer.message, new Date()), ...get().corrections] });
      setRecent(item.eventId, 'corrected');
      return;
    }
    setRecent(item.eventId, 'sent');
    absorb(recordedByEvent({ ...item, local }));
  }

  return {
    ready: false,
    sessionFilter: null,
    sessions: [],
    held: null,
    copy: NO_COPY,
    index: new Map(),
    window: DEFAULT_WINDOW,
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
        // A device that cannot read its storage starts empty and works online (the screen says why).
        const { copy: held, window, sessions, lastHeard } = await loadCopy().catch(() => ({ copy: null, window: DEFAULT_WINDOW, sessions: [], lastHeard: null }));
        set({ held, window, sessions, lastHeard, ready: true, ...shown(held) });
      }
      get().stop();
      timers = [setInterval(() => void get().refresh(), REFRESH_MS)];
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOffline);
      await useOutbox.getState().flush();
      // The company's locale and zone (GET /v1/system/instance, kept for offline starts): every time the guide reads follows them.
      void useInstance.getState().refresh();
      await get().refresh();
    },
    stop() {
      for (const t of timers) clearInterval(t);
      timers = [];
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    },

    /**
     * The day summary (small: the session list and the engine's today), then the window copy: changes
     * only since the cursor the device holds, or the whole window when the engine says to start over.
     */
    async refresh() {
      const c = config();
      if (!c) return;
      try {
        const { sessions } = await api(c, 'GET /v1/manifest/day', { query: { limit: 200 }, timeoutMs: 5_000 });
        const lastHeard = new Date().toISOString();
        set({ sessions, online: true, lastHeard });
        void saveDay(sessions);
        void saveLastHeard(lastHeard);
        await refreshCopy(servedDay(null, sessions, new Date()).day!);
        if (useOutbox.getState().items.length) void useOutbox.getState().flush();
      } catch (error) {
        if (error instanceof ApiError && !isUnreachable(error)) set({ problem: messageOf(error) });
        else set({ online: false });
      }
    },

    async setWindow(setting) {
      if (!validWindow(setting)) return;
      set({ window: setting });
      await saveWindow(setting);
      await get().refresh();
    },

    scan(raw, source) {
      const { code, tooLong } = cleanCode(raw);
      if (!code) return;
      if (!suppressor.shouldFire(code, Date.now(), SUPPRESS_MS[source])) {
        set({ ignored: { code, at: Date.now() } });
        return;
      }
      if (tooLong || code === UNREADABLE) {
        const refused = unreadableVerdict(code);
        show(refused, null);
        remember(refused, null, 'not sent');
        return;
      }
      const { copy, index, sessionFilter } = get();
      const verdict = decide({ code, copy, index, sessionFilter, ...dayOf(sessionFilter), now: Date.now() });
      if (verdict.kind === 'UNKNOWN_CODE') {
        // Not in this device's copy (an order code, a booking made a minute ago): ask the engine when
        // it answers, for at most 1.5 s. Offline, nothing is queued: a refused person is not admitted later.
        if (!get().online) {
          show(verdict, null);
          remember(verdict, null, 'not sent');
          return;
        }
        const item = scanItem({ code, sessionId: sessionFilter ?? undefined, ...dayOf(sessionFilter) }, { admit: false, result: 'UNKNOWN_CODE', label: code, sessionId: sessionFilter, participantIds: [] }, device());
        show(checkingVerdict(verdict), item.eventId, true);
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
        const cancelledAdmit = source === 'search' ? cancelledAdmitOf(verdict, { copy, sessionFilter, ...dayOf(sessionFilter), now: Date.now() }) : null;
        show(cancelledAdmit ? { ...verdict, cancelledAdmit } : verdict, null);
        remember(verdict, null, 'not sent');
        return;
      }
      const label = verdict.people.map((p) => p.name).join(', ');
      const item = scanItem({ code, sessionId: verdict.sessionId ?? undefined, ...dayOf(sessionFilter) }, { admit: true, result: verdict.kind, label, sessionId: verdict.sessionId, participantIds: verdict.participantIds }, device());
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
      const item = scanItem({ code: verdict.code, sessionId, override: true, ...dayOf(filter) }, { admit: true, result: verdict.override.rule, label, sessionId: verdict.sessionId, participantIds: verdict.participantIds }, device());
      const admitted = admittedByOverride({ ...verdict, override: verdict.override });
      show(admitted, item.eventId);
      remember(admitted, item.eventId, 'waiting');
      void enqueue(item);
    },

    admitCancelled() {
      const verdict = get().verdict;
      if (!verdict?.cancelledAdmit) return;
      const { admitted, items } = cancelledCheckIns(verdict, verdict.cancelledAdmit, device());
      show(admitted, null);
      for (const item of items) remember({ ...admitted, people: admitted.people.filter((p) => p.id === item.body.participantId) }, item.eventId, 'waiting');
      for (const item of items) enqueue(item);
    },

    /** Check in some or all of a booking: with the order code when that was scanned, else one event per person. */
    checkIn(participantIds) {
      const verdict = get().verdict;
      if (!verdict || !participantIds.length || verdict.sessionId === null) return;
      const sessionId = verdict.sessionId;
      const names = [...verdict.people, ...verdict.others].filter((p) => participantIds.includes(p.id)).map((p) => p.name);
      const label = names.join(', ');
      const local = { admit: true, result: 'CHECKED_IN', label, sessionId, participantIds };
      const admitted = admittedFromBooking(verdict, participantIds);
      if (verdict.kind === 'GROUP') {
        const item = scanItem({ code: verdict.code, sessionId, participantIds }, local, device());
        show(admitted, item.eventId);
        remember(admitted, item.eventId, 'waiting');
        void enqueue(item);
        return;
      }
      show(admitted, null);
      for (const participantId of participantIds) {
        const name = names[participantIds.indexOf(participantId)] ?? '';
        const item = checkInItem(sessionId, participantId, { ...local, label: name, participantIds: [participantId] }, device());
        remember({ ...admitted, people: [{ id: participantId, name, checkedIn: true }] }, item.eventId, 'waiting');
        void enqueue(item);
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
      else if (outcome.kind === 'events') for (const item of outcome.items) eventAnswered(item, outcome.answer.events.find((a) => a.eventId === item.eventId));
    },
  };
});

/** What the engine recorded goes into the device's copy, until the next refresh brings the engine's own. */
function absorb(recorded: Recorded) {
  const held = useScanner.getState().held;
  if (!held || recorded.sessionId === null || !recorded.participantIds.length) return;
  const next = withRecorded(held, recorded);
  if (next === held) return;
  void saveCopy(next);
  useScanner.setState({ held: next, ...shown(next) });
}

/** The window copy brought up to date (scanner/windowRefresh.ts), shown at once. */
async function refreshCopy(today: string) {
  const c = config();
  if (!c) return;
  const held = await refreshedCopy(c, today, useScanner.getState());
  useScanner.setState({ held, ...shown(held) });
}

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
