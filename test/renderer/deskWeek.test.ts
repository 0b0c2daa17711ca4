import { describe, expect, it } from 'vitest';
import type { ManifestBooking } from '../../renderer/src/api/types';
import { deskBookings } from '../../renderer/src/model/deskManifest';
import { parseRoute, urlOf, type Screen } from '../../renderer/src/model/routes';
import { hasPickups, pickupStops, rowsByStop, stopCounts, stopTitle } from '../../renderer/src/screens/session/pickupStops';
import { paymentTypeWord, rulesInWords, seatsLeft, sizeInWords } from '../../renderer/src/screens/week/deskWords';
import { APP_ROUTES } from '../../main/api/server';
import { aCancelledBooking, aManifestAnswer, aManifestBooking, aManifestParticipant } from '../fixtures/manifestAnswers';
import { useFormats } from '../../renderer/src/lib/formats';

const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

const pickup = (locationName: string, pickupTime?: string) => ({ locationName, ...(pickupTime ? { pickupTime } : {}) });
const booking = (orderNumber: string, seats: number, where: ManifestBooking['pickup'], names: string[] = ['Ann']) =>
  aManifestBooking({ orderNumber, seats, pickup: where, participants: names.map((name, i) => ({ ...aManifestParticipant({ id: Number(orderNumber.slice(3)) * 10 + i, position: i + 1, name }), history: [] })) });

describe('the manifest by pickup stop', () => {
  const manifest = aManifestAnswer({
    bookings: [
      booking('T1-1', 1, null, ['Walks In']),
      booking('T1-2', 4, pickup('Rocks Inn', '2030-01-01 08:20:00'), ['Fam One']),
      booking('T1-3', 2, pickup('Grand Hotel', '2030-01-01 08:00:00'), ['Gi One', 'Gi Two']),
      booking('T1-4', 1, pickup('rocks inn', '2030-01-01 08:20:00'), ['Ro Solo']),
      booking('T1-5', 3, pickup('Corner Cafe')),
    ],
    cancelled: [aCancelledBooking({ orderNumber: 'T1-9' })],
  });
  const stops = pickupStops(deskBookings(manifest));

  it('orders stops by pickup time, then those without a time, the bookings without a pickup last', () => {
    // Stop times in the company's format: 12-hour in en-AU, 24-hour in de-DE.
    useFormats.getState().setCompany({ locale: 'en-AU', timezone: 'Australia/Sydney' });
    expect(stops.map((s) => plain(stopTitle(s)))).toEqual(['8:00 am · Grand Hotel', '8:20 am · Rocks Inn', 'Corner Cafe', 'No pickup']);
    useFormats.getState().setCompany({ locale: 'de-DE', timezone: 'Europe/Berlin' });
    expect(stops.map(stopTitle)).toEqual(['08:00 · Grand Hotel', '08:20 · Rocks Inn', 'Corner Cafe', 'No pickup']);
    expect(stops[1].bookings.map((b) => b.orderNumber)).toEqual(['T1-2', 'T1-4']);
  });

  it('counts seats per stop as availability does (a family ticket is 4), a cancelled booking none', () => {
    expect(stops.map((s) => s.seats)).toEqual([2, 5, 3, 1]);
    expect(stopCounts(stops[1])).toBe('5 seats · 2 bookings');
    expect(stopCounts(stops[3])).toBe('1 seat · 1 booking');
    expect(stops[3].bookings.map((b) => b.orderNumber)).toEqual(['T1-1', 'T1-9']);
  });

  it('puts a heading row before each stop’s bookings in the list', () => {
    const rows = rowsByStop(stops);
    expect(rows.filter((r) => r.kind === 'stop').map((r) => r.key)).toEqual(['s-08:00|grand hotel', 's-08:20|rocks inn', 's-|corner cafe', 's-none']);
    expect(rows.slice(0, 4).map((r) => r.kind)).toEqual(['stop', 'booking', 'person', 'person']);
  });

  it('groups only where a live booking has a pickup', () => {
    expect(hasPickups(deskBookings(manifest))).toBe(true);
    expect(hasPickups(deskBookings(aManifestAnswer({ bookings: [booking('T1-1', 1, null)] })))).toBe(false);
  });
});

describe('the manager’s words and URLs', () => {
  it('says seats left, or by how many a departure is oversold', () => {
    expect(seatsLeft(3)).toBe('3 left');
    expect(seatsLeft(0)).toBe('0 left');
    expect(seatsLeft(-2)).toBe('2 over');
  });

  it('names payment types, override rules and backup sizes in words', () => {
    expect(paymentTypeWord('CREDITCARD')).toBe('Card');
    expect(paymentTypeWord('GIFT_CARD')).toBe('Gift card');
    expect(rulesInWords(['NOT_PAID', 'CHECKIN_CLOSED'])).toBe('not paid, check-in closed');
    expect(rulesInWords([])).toBe('no rule named');
    expect(sizeInWords(512)).toBe('512 bytes');
    expect(sizeInWords(1536)).toBe('1.5 KB');
    expect(sizeInWords(25 * 1024 * 1024)).toBe('25 MB');
  });

  it('names the week, the overrides and a run sheet by URLs that read back to them, served as the app', () => {
    const screens: Screen[] = [
      { name: 'week', from: null },
      { name: 'week', from: '2030-01-07' },
      { name: 'overrides', date: null },
      { name: 'overrides', date: '2030-01-02' },
      { name: 'runsheet', sessionId: 12 },
    ];
    for (const screen of screens) {
      const [path, search = ''] = urlOf(screen).split('?');
      expect(parseRoute(path, search).screen).toEqual(screen);
    }
    expect(parseRoute('/week', 'from=soon').screen).toEqual({ name: 'week', from: null });
    for (const route of ['/week', '/overrides', '/sessions/*']) expect(APP_ROUTES).toContain(route);
  });
});
