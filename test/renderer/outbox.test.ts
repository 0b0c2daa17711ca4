import { describe, expect, it } from 'vitest';
import type { CheckinEventBody } from '../../renderer/src/api/types';
import { addToOutbox, inQueueOrder, markAttempt, nextSend, removeFromOutbox, waitingEvents, type EventItem, type OutboxItem, type ScanItem } from '../../renderer/src/outbox/items';
import { LEGACY_QUEUE_KEY, legacyItems, migrateLegacyQueue } from '../../renderer/src/outbox/legacyQueue';

const now = '2030-01-01T00:00:00.000Z';
const checkIn = (eventId: string, participantId = 1): CheckinEventBody => ({ eventId, kind: 'CHECK_IN', sessionId: 7, participantId, occurredAt: now, device: 'Desk' });
const undo = (eventId: string, undoesEventId: string): CheckinEventBody => ({ eventId, kind: 'UNDO', sessionId: 7, undoesEventId, occurredAt: now });
const event = (body: CheckinEventBody, queuedAt = now, seq?: number): EventItem => ({ eventId: body.eventId, kind: 'event', body, queuedAt, seq, attempts: 0 });
const scan = (eventId: string): ScanItem => ({ eventId, kind: 'scan', body: { code: 'G1', eventId, occurredAt: now }, queuedAt: now, attempts: 0 });
const ids = (items: readonly { eventId: string }[]) => items.map((q) => q.eventId);
/** What an old version's desk left in localStorage. */
const legacyText = (events: unknown[]) => JSON.stringify({ version: 1, events });

describe('the outbox', () => {
  it('keeps items in the order they were made and never twice with one eventId', () => {
    let outbox = addToOutbox([], event(checkIn('a')));
    outbox = addToOutbox(outbox, scan('s'));
    outbox = addToOutbox(outbox, event(checkIn('a')));
    expect(ids(outbox)).toEqual(['a', 's']);
    expect(ids(removeFromOutbox(outbox, ['a']))).toEqual(['s']);
  });

  it('sends the events before the next scan as one batch, a scan on its own, in order', () => {
    const outbox: OutboxItem[] = [event(checkIn('a')), event(undo('u', 'a')), scan('s'), event(checkIn('b', 2))];
    expect(nextSend(outbox)).toEqual({ kind: 'events', items: outbox.slice(0, 2) });
    expect(nextSend(outbox, 1)).toEqual({ kind: 'events', items: outbox.slice(0, 1) });
    expect(nextSend(outbox.slice(2))).toEqual({ kind: 'scan', item: outbox[2] });
    expect(nextSend(outbox.slice(3))).toEqual({ kind: 'events', items: outbox.slice(3) });
    expect(nextSend([])).toBeNull();
  });

  it('keeps items after a failed send with the same eventId, counting attempts and the reason', () => {
    const outbox = [event(checkIn('a')), event(checkIn('b', 2))];
    const failed = markAttempt(markAttempt(outbox, ['a'], 'offline'), ['a'], 'still offline');
    expect(failed.map((q) => [q.eventId, q.attempts, q.lastError])).toEqual([
      ['a', 2, 'still offline'],
      ['b', 0, undefined],
    ]);
  });

  it('reads back in the order items were queued, whatever order the device hands them back in', () => {
    const stored = [event(checkIn('z'), now, 2), event(checkIn('y'), '2029-12-31T23:59:59.000Z', 9), event(checkIn('x'), now, 1)];
    expect(ids(inQueueOrder(stored))).toEqual(['y', 'x', 'z']);
  });

  it("lists the desk's events still waiting, scans left out", () => {
    expect(waitingEvents([event(checkIn('a')), scan('s'), event(undo('u', 'a'))]).map((e) => e.eventId)).toEqual(['a', 'u']);
  });
});

describe("an old version's localStorage queue", () => {
  it('becomes outbox items in its order, with their attempts and reasons', () => {
    const items = legacyItems(legacyText([{ event: checkIn('a'), queuedAt: now, attempts: 2, lastError: 'offline' }, { event: undo('u', 'a'), queuedAt: now, attempts: 0 }]));
    expect(items).toEqual([
      { eventId: 'a', kind: 'event', body: checkIn('a'), queuedAt: now, seq: 0, attempts: 2, lastError: 'offline' },
      { eventId: 'u', kind: 'event', body: undo('u', 'a'), queuedAt: now, seq: 1, attempts: 0 },
    ]);
    expect(ids(inQueueOrder([...items].reverse()))).toEqual(['a', 'u']);
  });

  it('reads nothing, garbage or foreign shapes as nothing and skips malformed entries', () => {
    expect(legacyItems(null)).toEqual([]);
    expect(legacyItems('not json')).toEqual([]);
    expect(legacyItems('{"events": 3}')).toEqual([]);
    expect(ids(legacyItems(legacyText([{ event: { kind: 'CHECK_IN' } }, { event: checkIn('a'), queuedAt: now, attempts: 0 }, null])))).toEqual(['a']);
  });

  it('moves into the outbox once: every item written before the old key goes', async () => {
    const storage = new Map([[LEGACY_QUEUE_KEY, legacyText([{ event: checkIn('a'), queuedAt: now, attempts: 0 }, { event: checkIn('b', 2), queuedAt: now, attempts: 0 }])]]);
    const local = { getItem: (k: string) => storage.get(k) ?? null, removeItem: (k: string) => void storage.delete(k) };
    const written: string[] = [];
    const put = async (item: EventItem) => {
      expect(storage.has(LEGACY_QUEUE_KEY)).toBe(true);
      written.push(item.eventId);
    };
    expect(ids(await migrateLegacyQueue(local, put))).toEqual(['a', 'b']);
    expect(written).toEqual(['a', 'b']);
    expect(storage.has(LEGACY_QUEUE_KEY)).toBe(false);
    expect(await migrateLegacyQueue(local, put)).toEqual([]);
    expect(written).toEqual(['a', 'b']);
  });

  it('stays where it is when the outbox cannot take it, to be moved on the next start', async () => {
    const storage = new Map([[LEGACY_QUEUE_KEY, legacyText([{ event: checkIn('a'), queuedAt: now, attempts: 0 }])]]);
    const local = { getItem: (k: string) => storage.get(k) ?? null, removeItem: (k: string) => void storage.delete(k) };
    await expect(migrateLegacyQueue(local, () => Promise.reject(new Error('quota')))).rejects.toThrow('quota');
    expect(storage.has(LEGACY_QUEUE_KEY)).toBe(true);
  });
});
