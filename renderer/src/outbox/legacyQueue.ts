import type { EventItem } from './items';

/**
 * Before the one outbox, the desk kept its check-in events in localStorage under this key, as
 * `{ version: 1, events: [{ event, queuedAt, attempts, lastError? }] }`. What an old version left
 * there moves into the outbox once, in its order, so an upgrade loses nothing.
 */
export const LEGACY_QUEUE_KEY = 'tourdesk.checkinQueue';

/** The outbox items an old version's queue holds; anything unreadable or malformed is skipped, never a crash at start. */
export function legacyItems(text: string | null): EventItem[] {
  if (!text) return [];
  let events: unknown;
  try {
    events = JSON.parse(text)?.events;
  } catch {
    return [];
  }
  if (!Array.isArray(events)) return [];
  return events
    .filter((q) => typeof q?.event?.eventId === 'string' && typeof q?.event?.kind === 'string' && typeof q?.event?.sessionId === 'number')
    .map((q, seq) => ({
      eventId: q.event.eventId,
      kind: 'event' as const,
      body: q.event,
      queuedAt: typeof q.queuedAt === 'string' ? q.queuedAt : q.event.occurredAt,
      seq,
      attempts: typeof q.attempts === 'number' ? q.attempts : 0,
      ...(typeof q.lastError === 'string' ? { lastError: q.lastError } : {}),
    }));
}

/**
 * Moves an old version's queue into the outbox: every item is written (`put`, durable) before the
 * old key is removed, so a crash in between sends nothing twice (eventIds) and loses nothing.
 */
export async function migrateLegacyQueue(storage: Pick<Storage, 'getItem' | 'removeItem'>, put: (item: EventItem) => Promise<void>): Promise<EventItem[]> {
  const items = legacyItems(storage.getItem(LEGACY_QUEUE_KEY));
  for (const item of items) await put(item);
  storage.removeItem(LEGACY_QUEUE_KEY);
  return items;
}
