import type { CheckinEventBody, QueuedScanBody, TakePaymentBody } from '../api/types';

/**
 * What this device has done and the engine has not yet answered, oldest first: the desk's check-ins,
 * undos and payments taken, the scanner's scans and check-ins. Each item keeps the device's eventId and clock, so
 * sending it twice (a lost answer, a reload mid-send) records it once. Pure functions over a plain
 * array; the outbox store keeps the array in IndexedDB.
 */
export type OutboxItem = ScanItem | EventItem | PaymentItem;

interface Queued {
  eventId: string;
  /** What the scanner showed and did, to compare with the engine's answer; none for the desk's events. */
  local?: LocalOutcome;
  queuedAt: string;
  /** Orders items queued in the same millisecond. */
  seq?: number;
  attempts: number;
  lastError?: string;
}
export type ScanItem = Queued & { kind: 'scan'; body: QueuedScanBody };
export type EventItem = Queued & { kind: 'event'; body: CheckinEventBody };
/** A payment taken at the desk; its eventId is the body's paymentRef (the engine records it once). */
export type PaymentItem = Queued & { kind: 'payment'; orderNumber: string; body: TakePaymentBody & { paymentRef: string } };

/** What the device showed and did, to compare with the engine's answer. */
export interface LocalOutcome {
  admit: boolean;
  result: string;
  label: string;
  sessionId: number | null;
  participantIds: number[];
}

/** The API takes up to 1000 events in one call; a smaller batch keeps each answer quick. */
const MAX_BATCH = 200;

export function addToOutbox(outbox: readonly OutboxItem[], item: OutboxItem): OutboxItem[] {
  return outbox.some((q) => q.eventId === item.eventId) ? [...outbox] : [...outbox, item];
}

export function removeFromOutbox(outbox: readonly OutboxItem[], eventIds: readonly string[]): OutboxItem[] {
  const gone = new Set(eventIds);
  return outbox.filter((q) => !gone.has(q.eventId));
}

/** After a failed send: the items stay, counted and with the reason kept. */
export function markAttempt(outbox: readonly OutboxItem[], eventIds: readonly string[], error: string): OutboxItem[] {
  const failed = new Set(eventIds);
  return outbox.map((q) => (failed.has(q.eventId) ? { ...q, attempts: q.attempts + 1, lastError: error } : q));
}

/**
 * What goes out next, in order: the oldest item when it is a scan or a payment (one call each), else
 * the events queued before the next scan or payment, as one batch.
 */
export function nextSend(outbox: readonly OutboxItem[], max = MAX_BATCH): { kind: 'scan'; item: ScanItem } | { kind: 'payment'; item: PaymentItem } | { kind: 'events'; items: EventItem[] } | null {
  const first = outbox[0];
  if (!first) return null;
  if (first.kind === 'scan') return { kind: 'scan', item: first };
  if (first.kind === 'payment') return { kind: 'payment', item: first };
  const end = outbox.findIndex((q) => q.kind !== 'event');
  return { kind: 'events', items: (end === -1 ? outbox : outbox.slice(0, end)).slice(0, max) as EventItem[] };
}

/** The order items were queued in (IndexedDB hands them back by key). */
export const inQueueOrder = (items: readonly OutboxItem[]): OutboxItem[] => [...items].sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || (a.seq ?? 0) - (b.seq ?? 0));

/** The desk's check-in events still waiting, in order (what the desk lays over its manifest). */
export const waitingEvents = (outbox: readonly OutboxItem[]): CheckinEventBody[] => outbox.flatMap((q) => (q.kind === 'event' ? [q.body] : []));

/** The payments still waiting for one booking (what its screens add to what the engine says is paid). */
export const waitingPayments = (outbox: readonly OutboxItem[], orderNumber: string): PaymentItem[] => outbox.filter((q): q is PaymentItem => q.kind === 'payment' && q.orderNumber === orderNumber);
