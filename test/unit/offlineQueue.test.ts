import { describe, expect, it } from 'vitest';
import type { CheckinEventBody } from '../../renderer/src/api/types';
import { deserialize, drop, enqueue, markFailed, nextBatch, pendingStateOf, serialize, settle, totalsWithQueue } from '../../renderer/src/store/offlineQueue';

const now = new Date('2030-01-01T00:00:00Z');
const checkIn = (eventId: string, participantId = 1): CheckinEventBody => ({ eventId, kind: 'CHECK_IN', sessionId: 7, participantId, occurredAt: now.toISOString(), device: 'Desk' });
const undo = (eventId: string, undoesEventId: string): CheckinEventBody => ({ eventId, kind: 'UNDO', sessionId: 7, undoesEventId, occurredAt: now.toISOString() });

describe('the offline check-in queue', () => {
  it('keeps events in the order they were made and never twice with one eventId', () => {
    let queue = enqueue([], checkIn('a'), now);
    queue = enqueue(queue, checkIn('b', 2), now);
    queue = enqueue(queue, checkIn('a'), now);
    expect(nextBatch(queue).map((e) => e.eventId)).toEqual(['a', 'b']);
    expect(nextBatch(queue, 1).map((e) => e.eventId)).toEqual(['a']);
  });

  it('removes only the events the server answered, and reports the rejected ones', () => {
    const queue = [checkIn('a'), checkIn('b', 2), checkIn('c', 3)].reduce((q, e) => enqueue(q, e, now), enqueue([], checkIn('z', 9), now));
    const { queue: left, rejected } = settle(queue, [
      { eventId: 'a', result: 'RECORDED' },
      { eventId: 'b', kind: 'CHECK_IN', result: 'REJECTED', message: 'Participant 2 is not in session 7' },
    ]);
    expect(left.map((q) => q.event.eventId)).toEqual(['z', 'c']);
    expect(rejected).toEqual([{ eventId: 'b', kind: 'CHECK_IN', result: 'REJECTED', message: 'Participant 2 is not in session 7' }]);
  });

  it('keeps events after a failed send with the same eventId, counting attempts and the reason', () => {
    const queue = enqueue(enqueue([], checkIn('a'), now), checkIn('b', 2), now);
    const failed = markFailed(markFailed(queue, [checkIn('a')], 'offline'), [checkIn('a')], 'still offline');
    expect(failed.map((q) => [q.event.eventId, q.attempts, q.lastError])).toEqual([
      ['a', 2, 'still offline'],
      ['b', 0, undefined],
    ]);
    expect(drop(failed, [checkIn('a')]).map((q) => q.event.eventId)).toEqual(['b']);
  });

  it('survives a reload: what serialize writes, deserialize reads back whole', () => {
    const queue = markFailed(enqueue(enqueue([], checkIn('a'), now), undo('u', 'a'), now), [checkIn('a')], 'offline');
    expect(deserialize(serialize(queue))).toEqual(queue);
  });

  it('reads nothing, garbage or foreign shapes as an empty queue and skips malformed entries', () => {
    expect(deserialize(null)).toEqual([]);
    expect(deserialize('not json')).toEqual([]);
    expect(deserialize('{"events": 3}')).toEqual([]);
    const good = enqueue([], checkIn('a'), now);
    expect(deserialize(JSON.stringify({ version: 1, events: [{ event: { kind: 'CHECK_IN' } }, ...good, null] }))).toEqual(good);
  });

  it('shows queued check-ins and undos over the server state of a participant', () => {
    expect(pendingStateOf([], 1, undefined, false)).toEqual({ checkedIn: false, eventId: undefined, pending: false });
    expect(pendingStateOf([], 1, 'srv', true)).toEqual({ checkedIn: true, eventId: 'srv', pending: false });
    const checkedIn = enqueue([], checkIn('a', 1), now);
    expect(pendingStateOf(checkedIn, 1, undefined, false)).toEqual({ checkedIn: true, eventId: 'a', pending: true });
    expect(pendingStateOf(checkedIn, 2, undefined, false)).toEqual({ checkedIn: false, eventId: undefined, pending: false });
    const undone = enqueue(checkedIn, undo('u', 'a'), now);
    expect(pendingStateOf(undone, 1, undefined, false)).toEqual({ checkedIn: false, eventId: undefined, pending: true });
    expect(pendingStateOf(enqueue([], undo('u', 'srv'), now), 1, 'srv', true)).toEqual({ checkedIn: false, eventId: undefined, pending: true });
    expect(pendingStateOf(enqueue([], undo('u', 'other'), now), 1, 'srv', true)).toEqual({ checkedIn: true, eventId: 'srv', pending: false });
  });
});

describe('session totals with the queue applied', () => {
  const totals = { booked: 3, checkedIn: 1, noShow: 0, remaining: 2 };
  const participants = [
    { id: 1, checkin: { state: 'CHECKED_IN', eventId: 'srv' } },
    { id: 2, checkin: { state: 'EXPECTED' } },
    { id: 3, checkin: { state: 'EXPECTED' } },
  ];
  it('counts queued check-ins and undos, and says how many are waiting', () => {
    const queue = enqueue(enqueue([], checkIn('a', 2), now), undo('u', 'srv'), now);
    expect(totalsWithQueue(queue, totals, participants)).toEqual({ booked: 3, checkedIn: 1, noShow: 0, remaining: 2, waiting: 2 });
    expect(totalsWithQueue(enqueue([], checkIn('b', 3), now), totals, participants)).toEqual({ booked: 3, checkedIn: 2, noShow: 0, remaining: 1, waiting: 1 });
  });
  it('is the server totals when nothing is queued', () => {
    expect(totalsWithQueue([], totals, participants)).toEqual({ ...totals, waiting: 0 });
  });
});
