import type { DayBoardSession, DeviceBooking, DeviceCopy, DeviceParticipant, DeviceProduct, DeviceSession } from '../api/types';
import { idbClear, idbCount, idbGet, idbPut } from '../lib/deviceDb';

/**
 * The scanner's copy of a window of days (GET /v1/checkin/device-copy): every booking of the
 * window's departures with the facts the scan rules weigh, kept in IndexedDB as one record and
 * refreshed with changes only. What it works from before (or without) the engine answering.
 */
export interface WindowCopy {
  from: string;
  to: string;
  /** The engine's cursor for the next refresh; null before the first answer. */
  cursor: string | null;
  /** When the engine last answered it (device ms). */
  fetchedAt: number;
  sessions: Record<number, DeviceSession>;
  products: Record<string, DeviceProduct>;
  /** A booking's part in one departure, by bookingKey. */
  bookings: Record<string, DeviceBooking>;
}

/** Which days a device keeps around its today: yesterday, today and the next 2 unless set otherwise. */
export interface WindowSetting {
  daysBefore: number;
  daysAfter: number;
}
export const DEFAULT_WINDOW: WindowSetting = { daysBefore: 1, daysAfter: 2 };

export const bookingKey = (b: Pick<DeviceBooking, 'sessionId'> & { context: { orderNumber: string } }) => `${b.sessionId} ${b.context.orderNumber}`;

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The window around a day (YYYY-MM-DD, the engine's today). */
export function windowAround(today: string, setting: WindowSetting = DEFAULT_WINDOW): { from: string; to: string } {
  return { from: shiftDay(today, -setting.daysBefore), to: shiftDay(today, setting.daysAfter) };
}

/** The engine's longest window (main/contract/deviceCopy.ts MAX_WINDOW_DAYS): from and to at most 13 days apart. */
export const MAX_WINDOW_DAYS = 14;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** A window setting the device accepts: whole days, none negative, the whole window within the engine's longest. */
export function validWindow(setting: WindowSetting): boolean {
  const { daysBefore, daysAfter } = setting;
  return Number.isInteger(daysBefore) && Number.isInteger(daysAfter) && daysBefore >= 0 && daysAfter >= 0 && daysBefore + daysAfter < MAX_WINDOW_DAYS;
}

/**
 * The window a device asks for: its days around today, stretched to the day of the departure it serves
 * alone (/scan?session=ID) when that is outside them, so that departure is decided offline too; a
 * departure too far off for one window is kept alone.
 */
export function windowServing(today: string, setting: WindowSetting, servedDay: string | null): { from: string; to: string } {
  const around = windowAround(today, setting);
  if (servedDay === null || (servedDay >= around.from && servedDay <= around.to)) return around;
  const from = servedDay < around.from ? servedDay : around.from;
  const to = servedDay > around.to ? servedDay : around.to;
  return daysBetween(from, to) < MAX_WINDOW_DAYS ? { from, to } : { from: servedDay, to: servedDay };
}

export const emptyCopy = (from: string, to: string): WindowCopy => ({ from, to, cursor: null, fetchedAt: 0, sessions: {}, products: {}, bookings: {} });

/**
 * The engine's answer merged into the copy: a whole answer replaces it; changes replace every entry
 * of each changed order (an order that moved departures or left the window leaves no entry behind),
 * and entries of departures no longer in the window go.
 */
export function mergeCopy(held: WindowCopy | null, answer: DeviceCopy, now: number): WindowCopy {
  const sessions = Object.fromEntries(answer.sessions.map((s) => [s.id, s]));
  const products = Object.fromEntries(answer.products.map((p) => [p.productCode, p]));
  const sameWindow = held !== null && held.from === answer.from && held.to === answer.to;
  const bookings: Record<string, DeviceBooking> = {};
  if (!answer.full && sameWindow) {
    const changed = new Set(answer.changedOrders);
    for (const [key, b] of Object.entries(held.bookings)) if (!changed.has(b.context.orderNumber) && sessions[b.sessionId]) bookings[key] = b;
  }
  for (const b of answer.bookings) bookings[bookingKey(b)] = b;
  return { from: answer.from, to: answer.to, cursor: answer.full || sameWindow ? answer.cursor : null, fetchedAt: now, sessions, products, bookings };
}

/** Whether an answer changed anything the device keeps (a quiet refresh need not be written again). */
export const changesSomething = (answer: DeviceCopy) => answer.full || answer.bookings.length > 0 || answer.changedOrders.length > 0;

/** Everyone in the copy with their booking and departure (for a search over the copy, offline). */
export function participantsInCopy(copy: WindowCopy): { participant: DeviceParticipant; booking: DeviceBooking; session: DeviceSession | undefined }[] {
  return Object.values(copy.bookings).flatMap((booking) => booking.participants.map((participant) => ({ participant, booking, session: copy.sessions[booking.sessionId] })));
}

export interface ServedCounts {
  inCount: number;
  total: number;
  /** Seats the served live bookings hold, as availability counts them (a 4-seat ticket is 4, however many names it has). */
  seatsBooked: number;
  /** The served departures' seats (one's, or all the copy's); null while a departure's is unknown. */
  capacity: number | null;
  /** Seats left, summed over the served departures that have some (an oversold one's missing seats are not taken from another's). */
  seatsLeft: number;
  /** By how many seats the served departures are oversold, summed (0: none is). */
  seatsOver: number;
  departures: number;
  heldOfDay: number;
}

/** What the scanner shows as served: the people of one departure, or of all the copy's, how many are in, and the seats they hold of how many. */
export function servedCounts(copy: WindowCopy, sessionId: number | null, day: readonly DayBoardSession[]): ServedCounts {
  const live = Object.values(copy.bookings).filter((b) => b.live && (sessionId === null || b.sessionId === sessionId));
  const people = live.flatMap((b) => b.participants);
  const sessions = sessionId === null ? Object.values(copy.sessions) : copy.sessions[sessionId] ? [copy.sessions[sessionId]] : [];
  const bookedOf = new Map<number, number>();
  for (const b of live) bookedOf.set(b.sessionId, (bookedOf.get(b.sessionId) ?? 0) + b.seats);
  // Each departure as the board counts it: its seats less its seats booked, negative when oversold.
  const available = sessions.map((s) => s.seats - (bookedOf.get(s.id) ?? 0));
  const known = sessions.length > 0 && available.every((a) => !Number.isNaN(a));
  return {
    inCount: people.filter((p) => p.checkin.state === 'CHECKED_IN').length,
    total: people.length,
    seatsBooked: live.reduce((sum, b) => sum + b.seats, 0),
    capacity: known ? sessions.reduce((sum, s) => sum + s.seats, 0) : null,
    seatsLeft: known ? available.reduce((sum, a) => sum + Math.max(a, 0), 0) : 0,
    seatsOver: known ? available.reduce((sum, a) => sum + Math.max(-a, 0), 0) : 0,
    departures: sessions.length,
    heldOfDay: day.filter((s) => copy.sessions[s.id]).length,
  };
}

/** The copy, its window setting, the day summary and when the engine was last heard, as this device kept them. */
/**
 * A copy kept by a build that held no seats is asked for whole on the next refresh (its cursor dropped):
 * changes only would leave the unchanged bookings without their seats. Until then a booking counts a
 * seat a name and a departure's capacity is unknown (NaN: no seats left are shown). Kept as it is otherwise.
 */
export function withSeats(copy: WindowCopy): WindowCopy {
  const seatless = Object.values(copy.sessions).some((s) => typeof s.seats !== 'number') || Object.values(copy.bookings).some((b) => typeof b.seats !== 'number');
  if (!seatless) return copy;
  const bookings = Object.fromEntries(Object.entries(copy.bookings).map(([key, b]) => [key, typeof b.seats === 'number' ? b : { ...b, seats: b.participants.length }]));
  const sessions = Object.fromEntries(Object.entries(copy.sessions).map(([id, s]) => [id, typeof s.seats === 'number' ? s : { ...s, seats: Number.NaN }]));
  return { ...copy, cursor: null, sessions, bookings };
}

export async function loadCopy(): Promise<{ copy: WindowCopy | null; window: WindowSetting; sessions: DayBoardSession[]; lastHeard: string | null }> {
  // Per-session manifests of an older build are not migrated: the window copy is fetched whole on the first refresh.
  if ((await idbCount('manifests')) > 0) await idbClear('manifests');
  const [copy, window, day, lastHeard] = await Promise.all([idbGet<WindowCopy>('meta', 'windowCopy'), idbGet<WindowSetting>('meta', 'window'), idbGet<DayBoardSession[]>('meta', 'day'), idbGet<string>('meta', 'lastHeard')]);
  return { copy: copy ? withSeats(copy) : null, window: window ?? DEFAULT_WINDOW, sessions: day ?? [], lastHeard: lastHeard ?? null };
}

// A write that fails (storage full, blocked) is said on screen by deviceDb; the scanner carries on with what it holds in memory.
const quietly = () => undefined;
export const saveCopy = (copy: WindowCopy) => idbPut('meta', 'windowCopy', copy).catch(quietly);
export const saveWindow = (setting: WindowSetting) => idbPut('meta', 'window', setting).catch(quietly);
export const saveDay = (sessions: DayBoardSession[]) => idbPut('meta', 'day', sessions).catch(quietly);
export const saveLastHeard = (at: string) => idbPut('meta', 'lastHeard', at).catch(quietly);
