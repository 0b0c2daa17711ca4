import type { CheckinEventBody, EventAnswer, RejectedEvent } from '../api/types';

/**
 * The offline queue of check-in events, as pure functions over a plain array. Every event is
 * queued before it is sent and leaves the queue only once the server has answered for it; a
 * resend keeps its eventId, which the server treats as idempotent, so nothing is lost or doubled.
 */
export interface QueuedEvent {
  event: CheckinEventBody;
  queuedAt: string;
  attempts: number;
  lastError?: string;
}

export const QUEUE_STORAGE_KEY = 'tourdesk.checkinQueue';

export function enqueue(queue: readonly QueuedEvent[], event: CheckinEventBody, now: Date): QueuedEvent[] {
  if (queue.some((q) => q.event.eventId === event.eventId)) return [...queue];
  return [...queue, { event, queuedAt: now.toISOString(), attempts: 0 }];
}

/** The next batch to send, oldest first (the API takes up to 1000 events in one call). */
export function nextBatch(queue: readonly QueuedEvent[], max = 200): CheckinEventBody[] {
  return queue.slice(0, max).map((q) => q.event);
}

/** After an answer: events the server answered leave the queue; REJECTED ones are reported back. */
export function settle(queue: readonly QueuedEvent[], answers: readonly EventAnswer[]): { queue: QueuedEvent[]; rejected: RejectedEvent[] } {
  const answered = new Set(answers.map((a) => a.eventId));
  return { queue: queue.filter((q) => !answered.has(q.event.eventId)), rejected: answers.filter((a) => a.result === 'REJECTED') };
}

/** After a failed send: the events stay, counted and with the reason shown. */
export function markFailed(queue: readonly QueuedEvent[], sent: readonly CheckinEventBody[], error: string): QueuedEvent[] {
  const ids = new Set(sent.map((e) => e.eventId));
  return queue.map((q) => (ids.has(q.event.eventId) ? { ...q, attempts: q.attempts + 1, lastError: error } : q));
}

/** Drops events (a 4xx answer to the batch means resending it unchanged cannot succeed). */
export function drop(queue: readonly QueuedEvent[], sent: readonly CheckinEventBody[]): QueuedEvent[] {
  const ids = new Set(sent.map((e) => e.eventId));
  return queue.filter((q) => !ids.has(q.event.eventId));
}

export function serialize(queue: readonly QueuedEvent[]): string {
  return JSON.stringify({ version: 1, events: queue });
}

/** Reads what serialize wrote; anything unreadable is an empty queue rather than a crash at start. */
export function deserialize(text: string | null): QueuedEvent[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text);
    const events: unknown = parsed?.events;
    if (!Array.isArray(events)) return [];
    return events.filter((q): q is QueuedEvent => typeof q?.event?.eventId === 'string' && typeof q?.event?.kind === 'string' && typeof q?.event?.sessionId === 'number');
  } catch {
    return [];
  }
}

/**
 * A participant's state as the desk should show it: the server's, then every queued event about
 * them applied in order (a queued CHECK_IN shows as checked in, a queued UNDO of it as expected).
 */
export function pendingStateOf(queue: readonly QueuedEvent[], participantId: number, serverEventId: string | undefined, serverCheckedIn: boolean): { checkedIn: boolean; eventId?: string; pending: boolean } {
  let state = { checkedIn: serverCheckedIn, eventId: serverEventId, pending: false };
  for (const { event } of queue) {
    if (event.kind === 'CHECK_IN' && event.participantId === participantId) state = { checkedIn: true, eventId: event.eventId, pending: true };
    else if (event.kind === 'UNDO' && state.checkedIn && event.undoesEventId === state.eventId) state = { checkedIn: false, eventId: undefined, pending: true };
  }
  return state;
}

/** A session's totals with the queued events applied, so the desk's counts match its buttons while offline. */
export function totalsWithQueue(
  queue: readonly QueuedEvent[],
  totals: { booked: number; checkedIn: number; noShow: number; remaining: number },
  participants: readonly { id: number; checkin: { state: string; eventId?: string } }[],
): { booked: number; checkedIn: number; noShow: number; remaining: number; waiting: number } {
  let checkedIn = totals.checkedIn;
  let noShow = totals.noShow;
  for (const p of participants) {
    const server = p.checkin.state === 'CHECKED_IN';
    const shown = pendingStateOf(queue, p.id, p.checkin.eventId, server);
    if (!shown.pending || shown.checkedIn === server) continue;
    checkedIn += shown.checkedIn ? 1 : -1;
    if (shown.checkedIn && p.checkin.state === 'NO_SHOW') noShow -= 1;
  }
  const waiting = participants.filter((p) => pendingStateOf(queue, p.id, p.checkin.eventId, p.checkin.state === 'CHECKED_IN').pending).length;
  return { booked: totals.booked, checkedIn, noShow, remaining: Math.max(0, totals.booked - checkedIn - noShow), waiting };
}
