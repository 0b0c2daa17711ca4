import { describe, expect, it } from 'vitest';
import { companyClock, companyOffsetMs, companyStamp } from '../../renderer/src/scanner/clock';
import { withPending } from '../../renderer/src/scanner/pending';
import { useFormats } from '../../renderer/src/lib/formats';
import type { OutboxItem } from '../../renderer/src/outbox/items';
import { copyOfManifests } from '../fixtures/deviceCopies';
import { aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession } from '../fixtures/manifestAnswers';

// Sydney in January is UTC+11: a 14:00 departure starts at 03:00Z.
const sydney = { startTime: '2030-01-01T03:00:00.000Z', startTimeLocal: '2030-01-01 14:00:00' };
// Berlin in summer is UTC+2, in winter UTC+1: the session nearest the instant tells the offset.
const berlinSummer = { startTime: '2030-03-30T08:00:00.000Z', startTimeLocal: '2030-03-30 09:00:00' };
const berlinAfterChange = { startTime: '2030-03-31T07:00:00.000Z', startTimeLocal: '2030-03-31 09:00:00' };

describe('one clock on the scanner screen', () => {
  const company = (locale: string) => useFormats.getState().setCompany({ locale, timezone: 'Australia/Sydney' });

  it('reads an instant on the company’s clock, whatever this device’s zone, 12- or 24-hour as its locale says', () => {
    expect(companyStamp('2030-01-01T09:22:37Z', [sydney])).toBe('2030-01-01 20:22:37');
    company('en_AU');
    expect(companyClock('2030-01-01T09:22:37Z', [sydney], true)).toBe('8:22:37 pm');
    expect(companyClock('2030-01-01T09:22:37Z', [sydney])).toBe('8:22 pm');
    company('en_US');
    expect(companyClock('2030-01-01T09:22:37Z', [sydney])).toBe('8:22 PM');
    company('en_GB');
    expect(companyClock('2030-01-01T09:22:37Z', [sydney], true)).toBe('20:22:37');
    expect(companyClock('2030-01-01T09:22:37Z', [sydney])).toBe('20:22');
  });

  it('takes the offset from the session nearest the instant, so a DST change within the window is honoured', () => {
    expect(companyOffsetMs([berlinSummer, berlinAfterChange], Date.parse('2030-03-30T12:00:00Z'))).toBe(3_600_000);
    expect(companyOffsetMs([berlinSummer, berlinAfterChange], Date.parse('2030-03-31T12:00:00Z'))).toBe(7_200_000);
  });

  it('labels the device’s own clock when no session has told the company’s offset', () => {
    expect(companyStamp('2030-01-01T09:22:37Z', [])).toBeNull();
    expect(companyStamp('2030-01-01T09:22:37Z', [{ startTime: '', startTimeLocal: '2030-01-01 14:00:00' }])).toBeNull();
    company('de_DE');
    expect(companyClock('2030-01-01T09:22:37Z', [], true)).toMatch(/^\d\d:\d\d:\d\d \(this device’s clock\)$/);
    company('en_AU');
    expect(companyClock('2030-01-01T09:22:37Z', [], true)).toMatch(/^\d{1,2}:\d\d:\d\d [ap]m \(this device’s clock\)$/);
  });


  it('stamps a check-in still waiting in the company’s time, as the engine will', () => {
    const p = aManifestParticipant({ id: 5, name: 'Grace', barcode: 'G5' });
    const manifest = aManifestAnswer({ session: aManifestSession({ id: 1, ...sydney }), bookings: [aManifestBooking({ orderNumber: 'T1', participants: [p] })] });
    const item = { eventId: 'e1', kind: 'scan', body: { code: 'G5', eventId: 'e1', occurredAt: '2030-01-01T09:23:00.000Z', device: 'Pier phone' }, local: { admit: true, result: 'CHECKED_IN', label: 'Grace', sessionId: 1, participantIds: [5] }, queuedAt: '', attempts: 0 } as OutboxItem;
    const copy = copyOfManifests([manifest]);
    expect(Object.values(withPending(copy, [item]).bookings)[0].participants[0].checkin).toMatchObject({ state: 'CHECKED_IN', atLocal: '2030-01-01 20:23:00' });
  });
});
