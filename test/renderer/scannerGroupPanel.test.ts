import { describe, expect, it } from 'vitest';
import { buildIndex, decide } from '../../renderer/src/scanner/verdict';
import { groupPanelOf, partyOf } from '../../renderer/src/scanner/groupPanel';
import type { Manifest, ManifestBooking, ParticipantCheckin } from '../../renderer/src/api/types';
import { copyOfManifests } from '../fixtures/deviceCopies';
import { aManifestAnswer, aManifestBooking, aManifestParticipant, aManifestSession, aRecordedCheckin } from '../fixtures/manifestAnswers';

let nextId = 100;
const aPerson = (name: string, state: ParticipantCheckin['state'] = 'EXPECTED') =>
  aManifestParticipant({ id: nextId++, name, barcode: `C-${name.split(' ')[0].toUpperCase()}`, checkin: state === 'CHECKED_IN' ? aRecordedCheckin({ state }) : { state } });
const aBookingOf = (orderNumber: string, participants: ManifestBooking['participants']): ManifestBooking =>
  aManifestBooking({ orderNumber, orderCodes: [`ORDER-${orderNumber}`], participants, payment: { totalAmount: 100, totalPaid: 100, totalDue: 0, totalCurrency: 'AUD', paid: true } });
const aManifest = (bookings: ManifestBooking[]): Manifest =>
  aManifestAnswer({ session: aManifestSession({ id: 7, productCode: 'P7', productName: 'Tour', startTime: '', endTime: '', startTimeLocal: '2030-01-01 09:00:00', endTimeLocal: '2030-01-01 10:00:00', seats: 30, checkinClosed: false }), bookings });

function scanned(manifest: Manifest, code: string) {
  const copy = copyOfManifests([manifest]);
  const verdict = decide({ code, copy, index: buildIndex(copy), sessionFilter: null, day: '2030-01-01', now: Date.parse('2030-01-01T08:50:00Z') });
  return { verdict, panel: groupPanelOf(verdict, partyOf(copy, verdict)) };
}

describe('the group panel under a verdict', () => {
  it('counts the rest of the booking as it lists them (a party of 2: one other, said as 1 person)', () => {
    const { verdict, panel } = scanned(aManifest([aBookingOf('T1', [aPerson('Ada Lovelace'), aPerson('Alan Turing')])]), 'C-ADA');
    expect(verdict.kind).toBe('CHECKED_IN');
    expect(panel?.legend).toBe('Also in this booking (1 person)');
    expect(panel?.people.map((p) => p.name)).toEqual(['Alan Turing']);
  });

  it('lists everyone else in the booking, those already in as in, and offers only those not in', () => {
    const { panel } = scanned(aManifest([aBookingOf('T2', [aPerson('Grace Hopper'), aPerson('Hedy Lamarr', 'CHECKED_IN'), aPerson('Claude Shannon'), aPerson('Frances Allen')])]), 'C-GRACE');
    expect(panel?.legend).toBe('Also in this booking (3 people)');
    expect(panel?.people.map((p) => [p.name, p.checkedIn])).toEqual([
      ['Hedy Lamarr', true],
      ['Claude Shannon', false],
      ['Frances Allen', false],
    ]);
    expect(panel?.open).toHaveLength(2);
    expect(panel?.open).not.toContain(panel?.people[0].id);
  });

  it('lists a whole booking for its order code, and none when everyone else is in', () => {
    const { verdict, panel } = scanned(aManifest([aBookingOf('T3', [aPerson('Edsger Dijkstra'), aPerson('Barbara Liskov'), aPerson('Donald Knuth', 'CHECKED_IN')])]), 'ORDER-T3');
    expect(verdict.kind).toBe('GROUP');
    expect(panel?.legend).toBe('Who is here? (3 people)');
    expect(panel?.open).toHaveLength(2);
    expect(scanned(aManifest([aBookingOf('T4', [aPerson('Katherine Johnson'), aPerson('Margaret Hamilton', 'CHECKED_IN')])]), 'C-KATHERINE').panel).toBeNull();
  });

  it('falls back to the verdict’s own list when the device does not hold the booking', () => {
    const { verdict } = scanned(aManifest([aBookingOf('T5', [aPerson('Barbara Liskov'), aPerson('John Backus')])]), 'C-BARBARA');
    const panel = groupPanelOf(verdict, null);
    expect(panel?.legend).toBe('Also in this booking (1 person)');
    expect(panel?.people.map((p) => p.name)).toEqual(['John Backus']);
  });
});
