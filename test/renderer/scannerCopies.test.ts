import { describe, expect, it } from 'vitest';
import type { DayBoardSession, Manifest } from '../../renderer/src/api/types';
import { copiesToDrop, copiesToFetch, type Held } from '../../renderer/src/scanner/copies';
import { signatureOf } from '../../renderer/src/scanner/pending';

const summary = (id: number, checkedIn = 0) => ({ id, booked: 4, checkedIn, noShow: 0, checkinClosed: false }) as DayBoardSession;
const held = (s: DayBoardSession, fetchedAt: number): Held => ({ manifest: { session: { id: s.id } } as Manifest, signature: signatureOf(s), fetchedAt });
const now = 10 * 60_000;

describe("the scanner's copies of the day's manifests", () => {
  it('fetches only the sessions that moved, were never fetched, or are old, and the served one when it is not today', () => {
    const day = [summary(1), summary(2, 1), summary(3), summary(4)];
    const copies = { 1: held(day[0], now), 2: held(summary(2), now), 4: held(day[3], now - 6 * 60_000) };
    expect(copiesToFetch(day, copies, null, now).sort()).toEqual([2, 3, 4]);
    expect(copiesToFetch(day, copies, 9, now).sort()).toEqual([2, 3, 4, 9]);
    expect(copiesToFetch(day, { ...copies, 9: held(summary(9), now) }, 9, now).sort()).toEqual([2, 3, 4]);
  });

  it("drops yesterday's copies but keeps the served session's", () => {
    const copies = { 1: held(summary(1), now), 7: held(summary(7), now), 8: held(summary(8), now) };
    expect(copiesToDrop([summary(1)], copies, 8)).toEqual([7]);
    expect(copiesToDrop([summary(1)], copies, null)).toEqual([7, 8]);
  });
});
