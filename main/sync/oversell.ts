/**
 * Overselling found by a merge: both sides sold the last seats while apart. Every booking stays;
 * the session is flagged until a person acknowledges this exact set of bookings. A later change
 * to the set (another booking, a cancellation) reopens it, since the person saw a different set.
 */
export interface SessionLoad {
  sessionId: number;
  capacity: number;
  /** Live bookings holding seats on the session. */
  bookings: { orderNumber: string; seats: number }[];
}

export interface Oversold {
  sessionId: number;
  capacity: number;
  seatsHeld: number;
  bookingSet: string;
  orderNumbers: string[];
  acknowledged: boolean;
}

/** The identity of a set of bookings: sorted order numbers, comma-joined (what an acknowledgement names). */
export function bookingSetKey(orderNumbers: readonly string[]): string {
  return [...new Set(orderNumbers)].sort().join(',');
}

export function oversoldOf(load: SessionLoad, acknowledgedSets: ReadonlySet<string>): Oversold | null {
  const seatsHeld = load.bookings.reduce((sum, b) => sum + b.seats, 0);
  if (seatsHeld <= load.capacity) return null;
  const orderNumbers = [...new Set(load.bookings.map((b) => b.orderNumber))].sort();
  const bookingSet = bookingSetKey(orderNumbers);
  return { sessionId: load.sessionId, capacity: load.capacity, seatsHeld, bookingSet, orderNumbers, acknowledged: acknowledgedSets.has(bookingSet) };
}
