import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestBooking } from '../../renderer/src/api/types';
import { applyEvents, deskBookings, refusalOf, rowsOf, searchBookings } from '../../renderer/src/model/deskManifest';
import { useFormats } from '../../renderer/src/lib/formats';
import { aCancelledBooking, aCustomerAnswer, aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession, aRecordedCheckin } from '../fixtures/manifestAnswers';

const person = (id: number, name: string, state: 'EXPECTED' | 'CHECKED_IN' | 'NO_SHOW' = 'EXPECTED', eventId?: string) =>
  aManifestParticipant({ id, name, barcode: `C${id}`, checkin: eventId ? aRecordedCheckin({ state, eventId, atLocal: '2030-01-01 13:00:00' }) : { state } });
const booking = (orderNumber: string, people: ManifestBooking['participants'], paid = true): ManifestBooking =>
  aManifestBooking({
    orderNumber,
    customer: aCustomerAnswer({ name: people[0].name, phone: '+61 400 123 456' }),
    payment: { totalAmount: 100, totalPaid: paid ? 100 : 0, totalDue: paid ? 0 : 100, totalCurrency: 'AUD', paid },
    participants: people,
  });
const aManifest = (bookings: ManifestBooking[], closed = false): Manifest =>
  aManifestAnswer({
    session: aManifestSession({ checkinClosed: closed }),
    bookings,
    cancelled: [aCancelledBooking({ orderNumber: 'T1-9', customer: aCustomerAnswer({ name: 'Sam Gone' }), participantCount: 1, cancelledAtLocal: '2030-01-01 11:00:00', participants: [{ id: 90, position: 0, name: 'Sam Gone', checkin: { state: 'EXPECTED' } }] })],
  });
const ev = (kind: string, extra: object) => ({ eventId: `e-${Math.random()}`, kind, sessionId: 7, occurredAt: '2030-01-01T02:05:00Z', ...extra }) as never;

describe('the desk manifest model', () => {
  it('applies its own check-ins, undos, no-shows, close and reopen as the engine derives them, with times in the session zone', () => {
    const m = aManifest([booking('T1-1', [person(1, 'Ana'), person(2, 'Ben')])]);
    const checkIn = ev('CHECK_IN', { participantId: 1 });
    let shown = applyEvents(m, [checkIn, ev('NO_SHOW', { participantId: 2 })]);
    expect(shown.bookings[0].participants.map((p) => p.checkin.state)).toEqual(['CHECKED_IN', 'NO_SHOW']);
    expect(shown.bookings[0].participants[0].checkin).toMatchObject({ atLocal: '2030-01-01 13:05:00' });
    expect(shown.totals).toEqual({ booked: 2, checkedIn: 1, noShow: 1, remaining: 0 });
    shown = applyEvents(m, [checkIn, ev('UNDO', { undoesEventId: (checkIn as { eventId: string }).eventId }), ev('CLOSE', {})]);
    expect(shown.session.checkinClosed).toBe(true);
    expect(shown.totals).toEqual({ booked: 2, checkedIn: 0, noShow: 2, remaining: 0 });
    expect(applyEvents(shown, [ev('REOPEN', {})]).totals).toEqual({ booked: 2, checkedIn: 0, noShow: 0, remaining: 2 });
  });

  it('names the rule a tap would break: cancelled, closed, unpaid (the scanner verdict), none for a paid open booking', () => {
    const m = aManifest([booking('T1-1', [person(1, 'Ana')]), booking('T1-2', [person(2, 'Cy')], false)]);
    const [paid, unpaid, cancelled] = deskBookings(m);
    expect(refusalOf(m, paid, [1])).toBeNull();
    expect(refusalOf(m, unpaid, [2])).toMatchObject({ rule: 'NOT_PAID' });
    // The cancellation's time as the scanner's verdict and the engine word it: the company's locale (12-hour en-AU, 24-hour de-DE).
    useFormats.getState().setCompany({ locale: 'en_AU', timezone: 'Australia/Sydney' });
    expect(refusalOf(m, cancelled, [90])).toMatchObject({ rule: 'BOOKING_CANCELLED', reason: 'Booking T1-9 was cancelled at Tue, 1 Jan 2030, 11:00 am' });
    useFormats.getState().setCompany({ locale: 'de_DE', timezone: 'Europe/Berlin' });
    expect(refusalOf(m, cancelled, [90])?.reason).toBe('Booking T1-9 was cancelled at Di., 1. Jan. 2030, 11:00');
    useFormats.getState().setCompany({ locale: 'en_AU', timezone: 'Australia/Sydney' });
    const closed = aManifest(m.bookings, true);
    expect(refusalOf(closed, deskBookings(closed)[0], [1])).toMatchObject({ rule: 'CHECKIN_CLOSED', action: 'Admit anyway (check-in closed)' });
  });

  it('searches by name, order number and phone digits, and lists a booking header before its people', () => {
    const all = deskBookings(aManifest([booking('T1-1', [person(1, 'Ána Lima'), person(2, 'Ben')]), booking('T1-22', [person(3, 'Cy')])]));
    expect(searchBookings(all, 'ana').map((b) => b.orderNumber)).toEqual(['T1-1']);
    expect(searchBookings(all, 't1-22').map((b) => b.orderNumber)).toEqual(['T1-22']);
    expect(searchBookings(all, '0400 123').length).toBe(2);
    expect(searchBookings(all, 'sam').map((b) => b.cancelled)).toEqual([true]);
    expect(rowsOf(searchBookings(all, 'ben')).map((r) => r.key)).toEqual(['b-T1-1', 'p-1', 'p-2']);
  });
});
