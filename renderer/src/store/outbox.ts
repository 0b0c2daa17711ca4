import { create } from 'zustand';
import { messageOf } from '../api/client';
import { addToOutbox, inQueueOrder, markAttempt, removeFromOutbox, type OutboxItem } from '../outbox/items';
import { migrateLegacyQueue } from '../outbox/legacyQueue';
import { sendNext, type SendOutcome } from '../outbox/sender';
import { idbAll, idbDelete, idbPut } from '../lib/deviceDb';
import { useConnection } from './connection';

interface OutboxState {
  /** Waiting to be answered, oldest first (also in IndexedDB, so they outlive a reload). */
  items: OutboxItem[];
  sending: boolean;
  /** Why the last send failed, or what the engine refused. */
  problem: string | null;
  /** Persists the items at once, then sends. */
  add(items: OutboxItem[]): Promise<void>;
  /** Sends in order until the outbox is empty or the engine cannot be reached. */
  flush(): Promise<void>;
}

let seq = 0;
let loading: Promise<void> | null = null;
/** The outbox as the device holds it (an old version's localStorage queue moved in first); once per page. */
function loaded(): Promise<void> {
  loading ??= (async () => {
    // A failed move leaves the old queue where it is, for the next start.
    const migrated = await migrateLegacyQueue(localStorage, (item) => idbPut('outbox', item.eventId, item)).catch(() => []);
    const stored = inQueueOrder(await idbAll<OutboxItem>('outbox').catch(() => migrated));
    seq = Math.max(0, ...stored.map((q) => q.seq ?? 0));
    // Anything added while this read ran comes after what was stored.
    useOutbox.setState({ items: [...stored, ...useOutbox.getState().items.filter((q) => !stored.some((s) => s.eventId === q.eventId))] });
  })();
  return loading;
}

/** Every check-in, scan, undo and payment this device makes goes through here: stored first, sent in order, retried until answered. */
export const useOutbox = create<OutboxState>((set, get) => ({
  items: [],
  sending: false,
  problem: null,
  async add(items) {
    await loaded();
    for (const item of items) {
      const stamped = { ...item, seq: ++seq };
      set({ items: addToOutbox(get().items, stamped) });
      // A device that cannot store (full, blocked) still sends while online: it says so on screen (deviceDb).
      await idbPut('outbox', item.eventId, stamped).catch(() => undefined);
    }
    await get().flush();
  },
  async flush() {
    const config = useConnection.getState().config;
    if (!config) return;
    // A flush asked for while one runs is owed after it: what was added meanwhile goes now, not at the next retry tick.
    if (get().sending) {
      flushOwed = true;
      return;
    }
    flushOwed = false;
    set({ sending: true });
    try {
      await loaded();
      for (;;) {
        const outcome = await sendNext(config, get().items);
        if (!outcome) break;
        for (const listener of listeners) listener(outcome);
        if (outcome.kind === 'unreachable') {
          const ids = outcome.items.map((q) => q.eventId);
          const items = markAttempt(get().items, ids, messageOf(outcome.error));
          set({ items, problem: messageOf(outcome.error) });
          for (const item of items.filter((q) => ids.includes(q.eventId))) void idbPut('outbox', item.eventId, item);
          break;
        }
        const done = answered(outcome);
        await Promise.all(done.map((id) => idbDelete('outbox', id).catch(() => undefined)));
        set({ items: removeFromOutbox(get().items, done), problem: problemOf(outcome) });
        // An event the engine did not answer stays for the next try rather than being sent again at once.
        if (outcome.kind === 'events' && done.length < outcome.items.length) break;
      }
    } finally {
      set({ sending: false });
    }
    if (flushOwed) await get().flush();
  },
}));

let flushOwed = false;

/** The items a send settled: answered, or refused as they are (resending them unchanged cannot succeed). */
function answered(outcome: Exclude<SendOutcome, { kind: 'unreachable' }>): string[] {
  if (outcome.kind === 'scan' || outcome.kind === 'payment') return [outcome.item.eventId];
  if (outcome.kind === 'refused') return outcome.items.map((q) => q.eventId);
  const ids = new Set(outcome.answer.events.map((a) => a.eventId));
  return outcome.items.map((q) => q.eventId).filter((id) => ids.has(id));
}

/** What the engine refused, in its words; null when it took everything. */
function problemOf(outcome: SendOutcome): string | null {
  if (outcome.kind === 'refused') return outcome.message;
  if (outcome.kind !== 'events') return null;
  const rejected = outcome.answer.events.filter((a) => a.result === 'REJECTED');
  return rejected.length ? rejected.map((r) => r.message).join('; ') : null;
}

type Listener = (outcome: SendOutcome) => void;
const listeners = new Set<Listener>();
/** Called with what came of every send, before the answered items leave the outbox. Returns the unsubscribe. */
export function onSendOutcome(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const RETRY_MS = 3_000;
let timer: ReturnType<typeof setInterval> | undefined;
/** Reads the outbox, then retries it every few seconds and as soon as the browser says it is back online. */
export function startOutbox(): void {
  if (timer) return;
  void loaded().then(() => useOutbox.getState().flush());
  timer = setInterval(() => get().items.length && void get().flush(), RETRY_MS);
  window.addEventListener('online', () => void get().flush());
}
const get = () => useOutbox.getState();
