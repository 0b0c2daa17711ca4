import { api, ApiError, messageOf, type ApiConfig } from '../api/client';
import type { Booking, EventsAnswer, ScanAnswer } from '../api/types';
import { nextSend, type EventItem, type OutboxItem, type PaymentItem, type ScanItem } from './items';

/** What one send came to: the engine's answer, its refusal of the items themselves, or no answer to act on. */
export type SendOutcome =
  | { kind: 'scan'; item: ScanItem; scan: ScanAnswer }
  | { kind: 'events'; items: EventItem[]; answer: EventsAnswer }
  | { kind: 'payment'; item: PaymentItem; booking: Booking }
  | { kind: 'refused'; items: OutboxItem[]; message: string }
  | { kind: 'unreachable'; items: OutboxItem[]; error: ApiError };

/** A scanner never waits long for the network: past these limits the engine counts as unreachable (a resend is idempotent). */
const SCAN_TIMEOUT_MS = 5_000;
const EVENTS_TIMEOUT_MS = 15_000;

/**
 * Worth sending again unchanged: the engine was not reached, failed inside, limited the rate, or
 * refused the key (it may be restored). Anything else refuses the items themselves (malformed,
 * eventId reused): resending cannot help.
 */
const worthRetrying = (error: unknown): error is ApiError => error instanceof ApiError && (error.offline || error.status >= 500 || error.status === 429 || error.status === 401 || error.status === 403);

/** Sends what is next in the outbox (one scan, or a batch of events) and says what came of it; null when it is empty. */
export async function sendNext(config: ApiConfig, outbox: readonly OutboxItem[]): Promise<SendOutcome | null> {
  const next = nextSend(outbox);
  if (!next) return null;
  const items = next.kind === 'events' ? next.items : [next.item];
  try {
    if (next.kind === 'scan') {
      const { scan } = await api(config, 'POST /v1/manifest/scan', { body: next.item.body, timeoutMs: SCAN_TIMEOUT_MS });
      return { kind: 'scan', item: next.item, scan };
    }
    if (next.kind === 'payment') {
      const { booking } = await api(config, 'POST /v1/bookings/:orderNumber/payments', { params: { orderNumber: next.item.orderNumber }, body: next.item.body, timeoutMs: EVENTS_TIMEOUT_MS });
      return { kind: 'payment', item: next.item, booking };
    }
    const answer = await api(config, 'POST /v1/manifest/events', { body: { events: next.items.map((q) => q.body) }, timeoutMs: EVENTS_TIMEOUT_MS });
    return { kind: 'events', items: next.items, answer };
  } catch (error) {
    if (worthRetrying(error)) return { kind: 'unreachable', items, error };
    return { kind: 'refused', items, message: messageOf(error) };
  }
}
