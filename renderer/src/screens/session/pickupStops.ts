/** The manifest by pickup: stops in the order the driver collects them, with the seats and people at each (no store, no DOM). */
import { personName, rowsOf, type DeskBooking, type ManifestRow } from '../../model/deskManifest';
import { formats } from '../../lib/formats';

export interface PickupStop {
  key: string;
  /** HH:mm in the departure's local time, when the location says how long before departure it is collected. */
  time: string | null;
  /** null: the bookings collected from no pickup point (they come to the departure), and cancelled ones. */
  locationName: string | null;
  address: string | null;
  instructions: string | null;
  /** Seats as availability counts them (a Family 2+2 ticket is 4), live bookings only. */
  seats: number;
  bookings: DeskBooking[];
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** True when any live booking of the manifest is collected from a pickup point. */
export const hasPickups = (bookings: readonly DeskBooking[]) => bookings.some((b) => !!b.live?.pickup?.locationName);

/**
 * The bookings grouped by pickup time and location, stops in time order (then by name), the
 * bookings without a pickup last. Within a stop the bookings keep the order they came in.
 */
export function pickupStops(bookings: readonly DeskBooking[]): PickupStop[] {
  const stops = new Map<string, PickupStop>();
  for (const booking of bookings) {
    const pickup = booking.live?.pickup ?? null;
    const locationName = text(pickup?.locationName);
    const time = locationName ? (text(pickup?.pickupTime)?.slice(11, 16) ?? null) : null;
    const key = locationName ? `${time ?? ''}|${locationName.toLowerCase()}` : 'none';
    let stop = stops.get(key);
    if (!stop) {
      stop = { key, time, locationName, address: text(pickup?.address), instructions: text(pickup?.pickupInstructions), seats: 0, bookings: [] };
      stops.set(key, stop);
    }
    stop.seats += booking.live?.seats ?? 0;
    stop.bookings.push(booking);
  }
  const order = (s: PickupStop) => (s.locationName === null ? '2' : s.time === null ? `1${s.locationName}` : `0${s.time}${s.locationName}`);
  return [...stops.values()].sort((a, b) => order(a).localeCompare(order(b)));
}

/** The stop's time in the company's format ("7:45 am" in en-AU): a wall-clock time, so any day will do. */
const stopTime = (time: string | null) => (time ? formats().time(`2000-01-01 ${time}`) : null);

/** A stop in words: "7:45 am · Harbourside Grand Hotel" (en-AU) or "No pickup". */
export const stopTitle = (stop: PickupStop) => (stop.locationName === null ? 'No pickup' : [stopTime(stop.time), stop.locationName].filter(Boolean).join(' · '));

/** "6 seats · 2 bookings" for a stop's heading. */
export function stopCounts(stop: PickupStop): string {
  const live = stop.bookings.filter((b) => !b.cancelled).length;
  return `${stop.seats} ${stop.seats === 1 ? 'seat' : 'seats'} · ${live} ${live === 1 ? 'booking' : 'bookings'}`;
}

/** The names a stop's booking travels under: its participants', else the customer's. */
export const bookingNames = (booking: DeskBooking) => (booking.participants.length ? booking.participants.map(personName) : [booking.customerName ?? booking.orderNumber]);

/** The manifest list's rows with a heading row before each stop's bookings. */
export function rowsByStop(stops: readonly PickupStop[]): ManifestRow[] {
  return stops.flatMap((stop): ManifestRow[] => [{ kind: 'stop', key: `s-${stop.key}`, title: stopTitle(stop), counts: stopCounts(stop) }, ...rowsOf(stop.bookings)]);
}
