import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countStates, deriveCheckinState, stateOf, type CheckinEvent, type StoredKind } from '../../main/domain/checkin/state';

let n = 0;
const ev = (kind: StoredKind, over: Partial<CheckinEvent> = {}): CheckinEvent => ({
  eventId: over.eventId ?? `e${++n}`,
  kind,
  participantId: 1,
  sessionId: 10,
  undoesEventId: null,
  parentEventId: null,
  occurredAt: 1000,
  device: null,
  apiKeyId: null,
  ...over,
});
const status = (events: CheckinEvent[], pid = 1) => stateOf(deriveCheckinState(events), pid).status;

describe('check-in state derived from events', () => {
  it('is EXPECTED without events and CHECKED_IN after a check-in', () => {
    expect(status([])).toBe('EXPECTED');
    expect(status([ev('CHECK_IN')])).toBe('CHECKED_IN');
  });

  it('lets a check-in beat a no-show from another device, in both arrival orders', () => {
    const checkIn = ev('CHECK_IN', { occurredAt: 2000, device: 'A' });
    const noShow = ev('NO_SHOW', { occurredAt: 3000, device: 'B' });
    expect(status([checkIn, noShow])).toBe('CHECKED_IN');
    expect(status([noShow, checkIn])).toBe('CHECKED_IN');
  });

  it('undoes exactly the check-in it names, whatever arrives first', () => {
    const first = ev('CHECK_IN', { eventId: 'a', occurredAt: 1000, device: 'A' });
    const second = ev('CHECK_IN', { eventId: 'b', occurredAt: 2000, device: 'B' });
    const undoFirst = ev('UNDO', { undoesEventId: 'a', occurredAt: 3000 });
    for (const order of [[first, second, undoFirst], [undoFirst, second, first], [second, undoFirst, first]]) {
      const state = stateOf(deriveCheckinState(order), 1);
      expect(state.status).toBe('CHECKED_IN');
      expect(state.event?.eventId).toBe('b');
    }
    expect(status([first, ev('UNDO', { undoesEventId: 'a' })])).toBe('EXPECTED');
    // An undo that arrives before the check-in it names still cancels it.
    expect(status([ev('UNDO', { undoesEventId: 'a' }), first])).toBe('EXPECTED');
  });

  it('undoes every check-in of a scan when the undo names the scan', () => {
    const scan = ev('SCAN', { eventId: 's', participantId: null });
    const children = [1, 2].map((pid) => ev('CHECK_IN', { eventId: `s.${pid}`, participantId: pid, parentEventId: 's' }));
    const derived = deriveCheckinState([scan, ...children, ev('UNDO', { undoesEventId: 's' })]);
    expect(countStates(derived, [1, 2]).checkedIn).toBe(0);
  });

  it('ignores an undo naming an undo, and a refused scan changes nothing', () => {
    const checkIn = ev('CHECK_IN', { eventId: 'c' });
    const undo = ev('UNDO', { eventId: 'u', undoesEventId: 'c' });
    expect(status([checkIn, undo, ev('UNDO', { undoesEventId: 'u' })])).toBe('EXPECTED');
    expect(status([ev('SCAN', { participantId: 1 })])).toBe('EXPECTED');
  });

  it('counts everyone not checked in as a no-show once the session is closed, until it is reopened', () => {
    const close = ev('CLOSE', { participantId: null, occurredAt: 5000 });
    const events = [ev('CHECK_IN', { participantId: 1 }), close];
    expect(countStates(deriveCheckinState(events), [1, 2, 3])).toEqual({ booked: 3, checkedIn: 1, noShow: 2, remaining: 0 });
    const reopen = ev('REOPEN', { participantId: null, occurredAt: 6000 });
    expect(countStates(deriveCheckinState([reopen, ...events]), [1, 2, 3])).toEqual({ booked: 3, checkedIn: 1, noShow: 0, remaining: 2 });
    // A late arrival after closing is still checked in.
    expect(status([close, ev('CHECK_IN', { participantId: 2, occurredAt: 7000 })], 2)).toBe('CHECKED_IN');
  });

  it('reports the earliest check-in when two devices checked the same person in', () => {
    const a = ev('CHECK_IN', { eventId: 'x', occurredAt: 2000, device: 'A' });
    const b = ev('CHECK_IN', { eventId: 'y', occurredAt: 1000, device: 'B' });
    expect(stateOf(deriveCheckinState([a, b]), 1).event?.device).toBe('B');
    expect(stateOf(deriveCheckinState([b, a]), 1).event?.device).toBe('B');
  });

  it('gives the same state for any permutation of the same event set', () => {
    const kinds: StoredKind[] = ['CHECK_IN', 'UNDO', 'NO_SHOW', 'CLOSE', 'REOPEN', 'SCAN'];
    const eventSet = fc
      .array(
        fc.record({
          kind: fc.constantFrom(...kinds),
          participantId: fc.integer({ min: 1, max: 4 }),
          occurredAt: fc.integer({ min: 0, max: 5 }),
          undoes: fc.integer({ min: 0, max: 30 }),
          parent: fc.option(fc.integer({ min: 0, max: 30 })),
        }),
        { maxLength: 30 },
      )
      .map((rows) =>
        rows.map((row, i): CheckinEvent => ({
          eventId: `e${i}`,
          kind: row.kind,
          participantId: row.kind === 'CLOSE' || row.kind === 'REOPEN' ? null : row.participantId,
          sessionId: 1,
          undoesEventId: row.kind === 'UNDO' ? `e${row.undoes}` : null,
          parentEventId: row.parent === null ? null : `e${row.parent}`,
          occurredAt: row.occurredAt,
          device: `d${i % 2}`,
          apiKeyId: null,
        })),
      );
    const summary = (events: CheckinEvent[]) => {
      const derived = deriveCheckinState(events);
      return {
        closed: derived.closed,
        states: [1, 2, 3, 4].map((pid) => {
          const s = stateOf(derived, pid);
          return `${s.status}:${s.event?.eventId ?? '-'}`;
        }),
      };
    };
    fc.assert(
      fc.property(
        eventSet.chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))),
        ([events, shuffled]) => {
          expect(summary(shuffled)).toEqual(summary(events));
        },
      ),
      { numRuns: 300 },
    );
  });
});
