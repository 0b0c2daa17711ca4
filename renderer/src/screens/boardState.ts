/** Where a departure stands on the day's board: the words and their rules, apart from the screen (no store, no DOM). */
import type { DayBoardSession } from '../api/types';
import { timeOf } from '../components/Status';
import { durationWords } from '../components/syncWords';

/** Boarding starts this long before departure (the desk's view; the scan rules have their own opening time). */
const BOARDING_MS = 60 * 60_000;

type BoardState = { key: 'open' | 'boarding' | 'underway' | 'closed' | 'alert' | 'past'; word: string; icon: string };

/** A colour and a word (never colour alone) for where a departure stands. */
export function boardStateOf(s: DayBoardSession, now: number): BoardState {
  // `oversold` is the open sync conflict the engine reports (an object, null when there is none).
  if (s.oversold !== null && !s.oversold.acknowledged) return { key: 'alert', word: 'Conflict', icon: '▲' };
  // Seats, not people: a family ticket of 4 holds 4 seats (seatsAvailable is negative when more are taken than there are).
  if (s.oversold !== null || s.seatsAvailable < 0) return { key: 'alert', word: 'Oversold', icon: '▲' };
  if (s.checkinClosed) return { key: 'closed', word: 'Closed', icon: '■' };
  const start = Date.parse(s.startTime);
  const end = Date.parse(s.endTime);
  if (now >= end) return { key: 'past', word: 'Departed', icon: '–' };
  // A day tour that left at 07:30 is not boarding at noon: it is under way until it ends (its
  // manifest still takes late check-ins; the scan rules decide those).
  if (now >= start) return { key: 'underway', word: 'Under way', icon: '▶' };
  if (now >= start - BOARDING_MS) return { key: 'boarding', word: 'Boarding', icon: '●' };
  return { key: 'open', word: 'Open', icon: '○' };
}

/** The first departure of the day that has not left yet and still takes check-ins (sessions come in start order). */
export function nextDeparture(sessions: readonly DayBoardSession[], now: number): DayBoardSession | undefined {
  return sessions.find((s) => Date.parse(s.startTime) > now && !s.checkinClosed);
}

/** From this long before a departure, closing its check-in is most likely a slip of the finger. */
const EARLY_CLOSE_MS = 30 * 60_000;

/**
 * The question before closing a departure's check-in: which departure, how many become no-shows,
 * and, well before it leaves, that it has not left yet.
 */
export function closeCheckinQuestion(session: { startTime: string; startTimeLocal: string }, remaining: number, now: number): string {
  const until = Date.parse(session.startTime) - now;
  const early = until > EARLY_CLOSE_MS ? `It leaves in ${durationWords(until)}. ` : '';
  const who = remaining === 0 ? 'Nobody is waiting to check in.' : `The ${remaining} ${remaining === 1 ? 'person' : 'people'} not checked in will count as no-shows.`;
  return `${early}Close check-in for the ${timeOf(session.startTimeLocal)} departure? ${who} (Reopen check-in takes it back.)`;
}
