import { describe, expect, it } from 'vitest';
import { boardStateOf, closeCheckinQuestion, nextDeparture } from '../../renderer/src/screens/boardState';
import type { DayBoardSession } from '../../renderer/src/api/types';
import { aManifestSession } from '../fixtures/manifestAnswers';
import { useFormats } from '../../renderer/src/lib/formats';

/** A departure on the board: 09:00-17:00 UTC unless told otherwise. */
const aDeparture = (overrides: Partial<DayBoardSession> = {}): DayBoardSession => ({
  ...aManifestSession({ startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-01T17:00:00Z' }),
  booked: 4,
  checkedIn: 0,
  noShow: 0,
  remaining: 4,
  resources: [],
  pickupCount: 0,
  ...overrides,
});
const at = (time: string) => Date.parse(`2030-01-01T${time}Z`);

describe('the departure board', () => {
  it('shows a departure open, boarding in the hour before it leaves, under way once it has left, and departed when it has ended', () => {
    const day = aDeparture();
    expect(boardStateOf(day, at('07:00:00')).word).toBe('Open');
    expect(boardStateOf(day, at('08:00:00')).word).toBe('Boarding');
    expect(boardStateOf(day, at('08:59:59')).word).toBe('Boarding');
    expect(boardStateOf(day, at('09:00:00')).word).toBe('Under way');
    expect(boardStateOf(day, at('12:00:00')).word).toBe('Under way');
    expect(boardStateOf(day, at('17:00:00')).word).toBe('Departed');
  });

  it('puts a closed check-in and an oversold session before the clock', () => {
    expect(boardStateOf(aDeparture({ checkinClosed: true }), at('08:30:00')).word).toBe('Closed');
    expect(boardStateOf(aDeparture({ seats: 20, seatsBooked: 22, seatsAvailable: -2 }), at('12:00:00')).word).toBe('Oversold');
    // Seats, not people: 3 people on family tickets holding all 12 seats is full, not oversold; 3 holding 13 is.
    expect(boardStateOf(aDeparture({ booked: 3, seats: 12, seatsBooked: 12, seatsAvailable: 0 }), at('12:00:00')).word).not.toBe('Oversold');
    expect(boardStateOf(aDeparture({ booked: 3, seats: 12, seatsBooked: 13, seatsAvailable: -1 }), at('12:00:00')).word).toBe('Oversold');
  });

  it('names as the next departure the first one that has not left yet, not a day tour under way', () => {
    const dayTour = aDeparture({ id: 1 });
    const cruise = aDeparture({ id: 2, startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T11:00:00Z' });
    const closed = aDeparture({ id: 3, startTime: '2030-01-01T13:00:00Z', endTime: '2030-01-01T14:00:00Z', checkinClosed: true });
    const evening = aDeparture({ id: 4, startTime: '2030-01-01T18:00:00Z', endTime: '2030-01-01T19:00:00Z' });
    const day = [dayTour, cruise, closed, evening];
    expect(nextDeparture(day, at('08:30:00'))?.id).toBe(1);
    expect(nextDeparture(day, at('09:30:00'))?.id).toBe(2);
    expect(nextDeparture(day, at('12:00:00'))?.id).toBe(4);
    expect(nextDeparture(day, at('18:00:00'))).toBeUndefined();
  });
});

describe('closing check-in', () => {
  // The company writes times 24-hour here (en-GB), so the sentences read as before.
  useFormats.getState().setCompany({ locale: 'en_GB', timezone: 'Europe/London' });
  const departure = { startTime: '2030-01-01T17:30:00Z', startTimeLocal: '2030-01-02 04:30:00' };
  it('names the departure and how many become no-shows, and says how long it has to go when that is over half an hour', () => {
    expect(closeCheckinQuestion(departure, 33, at('12:51:00'))).toBe('It leaves in 5 h. Close check-in for the 04:30 departure? The 33 people not checked in will count as no-shows. (Reopen check-in takes it back.)');
    expect(closeCheckinQuestion(departure, 1, at('17:10:00'))).toBe('Close check-in for the 04:30 departure? The 1 person not checked in will count as no-shows. (Reopen check-in takes it back.)');
    expect(closeCheckinQuestion(departure, 0, at('17:45:00'))).toBe('Close check-in for the 04:30 departure? Nobody is waiting to check in. (Reopen check-in takes it back.)');
  });
});
