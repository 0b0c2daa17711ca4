import { describe, expect, it } from 'vitest';
import { admittedByOverride, admittedFromBooking, scanItem, servedDay } from '../../renderer/src/scanner/scanItems';
import { recordedByScan, scanAnswerShown, withRecorded } from '../../renderer/src/scanner/answers';
import type { ShownVerdict } from '../../renderer/src/scanner/recent';
import type { Verdict } from '../../renderer/src/scanner/verdict';
import type { DayBoardSession } from '../../renderer/src/api/types';
import { copyOfManifests } from '../fixtures/deviceCopies';
import { aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession, aSessionScan } from '../fixtures/manifestAnswers';

const aVerdict = (overrides: Partial<Verdict> = {}): Verdict => ({
  code: 'T1-1',
  kind: 'GROUP',
  tone: 'amber',
  word: 'GROUP',
  message: '',
  sessionId: 1,
  sessionLabel: '14:00 Tour',
  booking: null,
  people: [{ id: 1, name: 'Grace', checkedIn: true }],
  admit: false,
  participantIds: [2, 3],
  others: [
    { id: 2, name: 'Alan' },
    { id: 3, name: 'Ada' },
  ],
  override: null,
  ...overrides,
});
const local = { admit: true, result: 'CHECKED_IN', label: 'Grace', sessionId: 1, participantIds: [1] };

describe('the scanner’s outbox items and the verdicts shown for them', () => {
  it('scans for the day the engine’s day list is on when serving all departures, and for no day when serving one', () => {
    const sessions = [{ startTimeLocal: '2030-01-03 09:00:00' }] as DayBoardSession[];
    expect(servedDay(null, sessions, new Date())).toEqual({ day: '2030-01-03' });
    expect(servedDay(7, sessions, new Date())).toEqual({});
    expect(servedDay(null, [], new Date(2030, 0, 5, 12))).toEqual({ day: '2030-01-05' });
  });

  it('gives each scan its own eventId and the device’s clock and name', () => {
    const [a, b] = [scanItem({ code: 'G1' }, local, 'Pier phone'), scanItem({ code: 'G1' }, local, 'Pier phone')];
    expect(a.eventId).not.toBe(b.eventId);
    expect(a).toMatchObject({ kind: 'scan', body: { code: 'G1', eventId: a.eventId, device: 'Pier phone' }, local, attempts: 0 });
  });

  it('shows the people checked in from a booking in, and those left out as they were', () => {
    const admitted = admittedFromBooking(aVerdict(), [2]);
    expect(admitted).toMatchObject({ kind: 'CHECKED_IN', tone: 'green', admit: true, others: [], message: '1 checked in · ' });
    expect(admitted.people).toEqual([
      { id: 1, name: 'Grace', checkedIn: true },
      { id: 2, name: 'Alan', checkedIn: true },
      { id: 3, name: 'Ada', checkedIn: false },
    ]);
    const overridden = admittedByOverride({ ...aVerdict({ people: [{ id: 1, name: 'Grace', checkedIn: false }] }), override: { rule: 'NOT_PAID', label: 'Not paid' } });
    expect(overridden).toMatchObject({ word: 'CHECKED IN', message: 'Admitted by override: not paid', override: null, people: [{ checkedIn: true }] });
  });
});

describe('the engine’s answer to a scan', () => {
  const item = scanItem({ code: 'G1' }, local, 'Pier phone');
  const answer = aSessionScan({ result: 'BOOKING_CANCELLED', checkedIn: false, message: 'Do not admit: booking T1-1 was cancelled', eventId: item.eventId });

  it('is the verdict while the device is still asking, a correction when it disagrees with what was shown, else only sent', () => {
    const asking = { ...aVerdict(), eventId: item.eventId, shownAt: 0, checking: true } as ShownVerdict;
    expect(scanAnswerShown(item, answer, asking, new Date())).toMatchObject({ kind: 'verdict', verdict: { code: 'G1' } });
    expect(scanAnswerShown(item, answer, { ...asking, checking: false }, new Date())).toMatchObject({ kind: 'correction', correction: { label: 'Grace' } });
    const agreed = aSessionScan({ result: 'CHECKED_IN', checkedIn: true, message: 'ok', eventId: item.eventId });
    expect(scanAnswerShown(item, agreed, null, new Date())).toEqual({ kind: 'sent' });
  });

  it('goes into the device’s copy, once per person', () => {
    const p = aManifestParticipant({ id: 1, name: 'Grace', barcode: 'G1', checkin: { state: 'EXPECTED' } });
    const copy = copyOfManifests([aManifestAnswer({ session: aManifestSession({ id: 1 }), bookings: [aManifestBooking({ orderNumber: 'T1-1', participants: [p] })] })]);
    const recorded = { ...recordedByScan(item, aSessionScan({ result: 'CHECKED_IN', checkedIn: true, message: 'ok', eventId: item.eventId })), participantIds: [1] };
    const held = withRecorded(copy, recorded);
    expect(held.bookings['1 T1-1'].participants[0].checkin).toMatchObject({ state: 'CHECKED_IN', eventId: `${item.eventId}.1`, device: 'Pier phone' });
    // Recorded again (a resent answer): nothing changes, the first check-in stands.
    expect(withRecorded(held, recorded)).toBe(held);
    expect(withRecorded(copy, { ...recorded, sessionId: 2 })).toBe(copy);
  });
});
