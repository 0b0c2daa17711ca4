import { describe, expect, it } from 'vitest';
import { searchablesOf, searchHeld, stateOf } from '../../renderer/src/scanner/search';
import type { DeviceBooking, Manifest, ManifestBooking } from '../../renderer/src/api/types';
import { bookingKey } from '../../renderer/src/scanner/copies';
import { copyOfManifests } from '../fixtures/deviceCopies';
import { aCustomerAnswer, aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession, aRecordedCheckin } from '../fixtures/manifestAnswers';

let nextId = 1;
const aPerson = (name: string, checkedIn = false) => aManifestParticipant({ id: nextId++, name, barcode: `C${nextId}`, checkin: checkedIn ? aRecordedCheckin() : { state: 'EXPECTED' } });
const aBooking = (orderNumber: string, customer: string, phone: string | null, people: string[]): ManifestBooking =>
  aManifestBooking({ orderNumber, orderCodes: [`ORD-${orderNumber}`], customer: aCustomerAnswer({ name: customer, phone }), participants: people.map((n) => aPerson(n)) });
const aDeparture = (id: number, startTimeLocal: string, bookings: ManifestBooking[]): Manifest =>
  aManifestAnswer({ session: aManifestSession({ id, productName: `Tour ${id}`, startTime: '', startTimeLocal, checkinClosed: false }), bookings });

const morning = aDeparture(1, '2030-01-01 09:00:00', [aBooking('T1-00003', 'José Álvarez', '+61 400 123 757', ['José Álvarez', 'Marta Álvarez']), aBooking('T1-00012', 'Grace Hopper', '02 9999 0000', ['Grace Hopper'])]);
const tomorrow = aDeparture(2, '2030-01-02 14:00:00', [aBooking('T1-00030', 'Ada Lovelace', null, ['Ada Lovelace'])]);
// Held in any order: the search lists the soonest departure first.
const copy = copyOfManifests([tomorrow, morning]);
// The window copy holds cancelled bookings too, with their codes (they scan as CANCELLED).
const { participants: _p, orderCodes: _o, seats, ...context } = aBooking('T1-00031', 'Alan Turing', '0411 222 333', []);
const cancelled: DeviceBooking = {
  sessionId: 2,
  context: { ...context, status: 'CANCELLED' },
  seats,
  live: false,
  cancelledAtLocal: '2030-01-01 08:00:00',
  orderCodes: ['ORD-T1-00031'],
  revokedCodes: [],
  participants: [{ id: 99, position: 0, name: 'Alan Turing', barcode: 'C-TURING', checkin: { state: 'EXPECTED' }, missing: [] }],
};
copy.bookings[bookingKey(cancelled)] = cancelled;
const rows = searchablesOf(copy);
const orders = (query: string) => searchHeld(rows, query).found.map((r) => r.booking.orderNumber);

describe('the scanner’s search over what the device holds', () => {
  it('finds a phone typed the local way in its international form (the desk’s rule), cancelled bookings too', () => {
    expect(orders('0400 123 757')).toEqual(['T1-00003']);
    expect(orders('0411222333')).toEqual(['T1-00031']);
    expect(orders('0400 999 999')).toEqual([]);
    expect(orders('400-123')).toEqual(['T1-00003']);
  });

  it('finds an order number, whole or in part, in any case', () => {
    expect(orders('t1-00012')).toEqual(['T1-00012']);
    expect(orders('T1-0003')).toEqual(['T1-00030', 'T1-00031']);
  });

  it('finds names whatever their accents and case, participants and customers alike', () => {
    expect(orders('jose alvarez')).toEqual(['T1-00003']);
    expect(orders('MARTA')).toEqual(['T1-00003']);
    expect(orders('Lovelace')).toEqual(['T1-00030']);
    expect(orders('nobody here')).toEqual([]);
  });

  it('lists each match with its departure, soonest first, cancelled bookings marked and with their code', () => {
    const found = searchHeld(rows, 't1-000').found;
    expect(found.map((r) => [r.booking.orderNumber, r.session.startTimeLocal.slice(0, 16), r.booking.cancelled])).toEqual([
      ['T1-00003', '2030-01-01 09:00', false],
      ['T1-00012', '2030-01-01 09:00', false],
      ['T1-00030', '2030-01-02 14:00', false],
      ['T1-00031', '2030-01-02 14:00', true],
    ]);
    expect(found[0].orderCode).toBe('ORD-T1-00003');
    expect(found[3].orderCode).toBe('ORD-T1-00031');
    expect(stateOf(found[3].booking, found[3].booking.participants[0]).word).toBe('Booking cancelled');
  });

  it('waits for two characters, and says how many more matched than it lists', () => {
    expect(orders('a')).toEqual([]);
    expect(searchHeld(rows, 't1', 2)).toMatchObject({ more: 2 });
    expect(searchHeld(rows, 't1', 2).found).toHaveLength(2);
  });

  it('reads a person’s state as the guide needs it', () => {
    const b = searchablesOf(copyOfManifests([aDeparture(3, '2030-01-01 10:00:00', [aManifestBooking({ orderNumber: 'X', participants: [aPerson('In Already', true), aManifestParticipant({ id: 500, checkin: { state: 'NO_SHOW' } })] })])]))[0].booking;
    expect(b.participants.map((p) => stateOf(b, p))).toEqual([
      { word: 'In', in: true },
      { word: 'No-show', in: false },
    ]);
  });
});
