import { create } from 'zustand';
import { api, ApiError, messageOf } from '../api/client';
import type { CheckinEventBody, EventsAnswer } from '../api/types';
import { deserialize, drop, enqueue, markFailed, nextBatch, QUEUE_STORAGE_KEY, serialize, settle, type QueuedEvent } from './offlineQueue';
import { useConnection } from './connection';

interface QueueState {
  queue: QueuedEvent[];
  sending: boolean;
  /** Why the last send failed (offline), or what the server refused. */
  problem: string | null;
  /** Bumped after each batch the server took, so open screens reload. */
  delivered: number;
  add(event: CheckinEventBody): Promise<void>;
  flush(): Promise<void>;
}

function persist(queue: QueuedEvent[]): QueuedEvent[] {
  localStorage.setItem(QUEUE_STORAGE_KEY, serialize(queue));
  return queue;
}

/** Check-in events go through this queue: stored in localStorage first, then sent, retried until answered. */
export const useQueue = create<QueueState>((set, get) => ({
  queue: deserialize(localStorage.getItem(QUEUE_STORAGE_KEY)),
  sending: false,
  problem: null,
  delivered: 0,
  async add(event) {
    set({ queue: persist(enqueue(get().queue, event, new Date())) });
    await get().flush();
  },
  async flush() {
    const config = useConnection.getState().config;
    if (!config || get().sending || get().queue.length === 0) return;
    set({ sending: true });
    const batch = nextBatch(get().queue);
    try {
      const answer = await api(config, 'POST /v1/manifest/events', { body: { events: batch } });
      // Before the queue drops them: the manifest applies its own answered events (no refetch).
      for (const listener of answerListeners) listener(batch, answer);
      const { queue, rejected } = settle(get().queue, answer.events);
      set({ queue: persist(queue), problem: rejected.length ? rejected.map((r) => r.message).join('; ') : null, delivered: get().delivered + 1 });
    } catch (error) {
      // Only a refusal of the events themselves (400 malformed, 409 eventId reused) cannot succeed unchanged: drop
      // those and say why. Unreachable, server faults, rate limits and key problems (401/403): keep for the next try.
      const keep = !(error instanceof ApiError && (error.status === 400 || error.status === 409));
      const queue = keep ? markFailed(get().queue, batch, messageOf(error)) : drop(get().queue, batch);
      set({ queue: persist(queue), problem: messageOf(error) });
    } finally {
      set({ sending: false });
    }
    if (get().queue.length > 0 && !get().problem) await get().flush();
  },
}));

type AnswerListener = (sent: CheckinEventBody[], answer: EventsAnswer) => void;
const answerListeners = new Set<AnswerListener>();
/** Called with every batch the engine answered, and its answers. Returns the unsubscribe. */
export function onAnswers(listener: AnswerListener): () => void {
  answerListeners.add(listener);
  return () => answerListeners.delete(listener);
}

const RETRY_MS = 3000;
let timer: ReturnType<typeof setInterval> | undefined;
/** Retries the queue every few seconds and as soon as the browser says it is back online. */
export function startQueueRetry(): void {
  if (timer) return;
  timer = setInterval(() => void useQueue.getState().flush(), RETRY_MS);
  window.addEventListener('online', () => void useQueue.getState().flush());
}
