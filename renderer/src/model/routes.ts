/**
 * The app's screens as real URLs, so a person can bookmark and reload any of them:
 *   /                      the departure board (?date=yyyy-MM-dd for another day)
 *   /sessions/12           a session's manifest
 *   /walkup?session=12     a walk-up sale for it (/sessions/12/walk-up still opens it)
 *   /bookings              booking search (?q=name, order number or phone; ?date=yyyy-MM-dd)
 *   /bookings/ORDER        one booking: detail, edit, cancel, take payment
 *   /bookings/ORDER/tickets   its printable tickets (?size=a4; 80 mm receipt paper by default)
 *   /bookings/ORDER/receipt/ID  a printable receipt for one of its payments
 *   /settings              company, API keys, this instance and its peers, backups, look
 *   /scan                  the scanner for today's sessions (?session=12 for one departure)
 *   /pair                  a QR code that signs a guide's phone in to the scanner
 *   /week                  seven days of departures and their totals (?from=yyyy-MM-dd for another week)
 *   /overrides             the check-ins admitted under an override (?date=yyyy-MM-dd for another day)
 *   /sessions/12/pickups   a departure's pickup run sheet, printable, for the driver
 * In the browser these are paths (the server answers index.html for them); in the desktop
 * app's file:// window, where paths cannot change, the same routes live in the hash (#/scan).
 */
export type Screen =
  | { name: 'board' }
  | { name: 'session'; sessionId: number }
  | { name: 'walkup'; sessionId: number }
  | { name: 'scan'; sessionId: number | null }
  | { name: 'pair' }
  | { name: 'bookings'; q: string; date: string | null }
  | { name: 'booking'; orderNumber: string }
  | { name: 'tickets'; orderNumber: string; size: TicketSize }
  | { name: 'receipt'; orderNumber: string; paymentId: number }
  | { name: 'settings' }
  | { name: 'week'; from: string | null }
  | { name: 'overrides'; date: string | null }
  | { name: 'runsheet'; sessionId: number };

/** The paper a ticket page is laid out for: an 80 mm receipt printer's roll, or A4. */
export type TicketSize = '80mm' | 'a4';

export interface Route {
  screen: Screen;
  boardDate: string | null;
}

const dayOf = (text: string | null) => (text && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null);
const id = (text: string | undefined) => (text && /^\d{1,15}$/.test(text) ? Number(text) : null);

/** A path and query to the screen they name; anything unknown is the board. */
export function parseRoute(path: string, search: string): Route {
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean);
  const date = query.get('date');
  const boardDate = dayOf(date);
  if (parts[0] === 'scan' && parts.length === 1) return { screen: { name: 'scan', sessionId: id(query.get('session') ?? undefined) }, boardDate };
  if (parts[0] === 'pair' && parts.length === 1) return { screen: { name: 'pair' }, boardDate };
  if (parts[0] === 'week' && parts.length === 1) return { screen: { name: 'week', from: dayOf(query.get('from')) }, boardDate: null };
  if (parts[0] === 'overrides' && parts.length === 1) return { screen: { name: 'overrides', date: boardDate }, boardDate: null };
  if (parts[0] === 'settings' && parts.length === 1) return { screen: { name: 'settings' }, boardDate: null };
  if (parts[0] === 'bookings' && parts.length === 1) return { screen: { name: 'bookings', q: query.get('q') ?? '', date: boardDate }, boardDate: null };
  if (parts[0] === 'bookings' && parts.length === 2) return { screen: { name: 'booking', orderNumber: decodeURIComponent(parts[1]) }, boardDate: null };
  if (parts[0] === 'bookings' && parts.length === 3 && parts[2] === 'tickets') return { screen: { name: 'tickets', orderNumber: decodeURIComponent(parts[1]), size: query.get('size') === 'a4' ? 'a4' : '80mm' }, boardDate: null };
  const paymentId = parts[0] === 'bookings' && parts.length === 4 && parts[2] === 'receipt' ? id(parts[3]) : null;
  if (paymentId !== null) return { screen: { name: 'receipt', orderNumber: decodeURIComponent(parts[1]), paymentId }, boardDate: null };
  const walkUpSession = parts[0] === 'walkup' && parts.length === 1 ? id(query.get('session') ?? undefined) : null;
  if (walkUpSession !== null) return { screen: { name: 'walkup', sessionId: walkUpSession }, boardDate: null };
  const sessionId = parts[0] === 'sessions' ? id(parts[1]) : null;
  if (sessionId !== null && parts.length === 2) return { screen: { name: 'session', sessionId }, boardDate };
  if (sessionId !== null && parts.length === 3 && parts[2] === 'pickups') return { screen: { name: 'runsheet', sessionId }, boardDate: null };
  if (sessionId !== null && parts.length === 3 && parts[2] === 'walk-up') return { screen: { name: 'walkup', sessionId }, boardDate };
  return { screen: { name: 'board' }, boardDate };
}

export function urlOf(screen: Screen, boardDate: string | null = null): string {
  switch (screen.name) {
    case 'session':
      return `/sessions/${screen.sessionId}`;
    case 'walkup':
      return `/walkup?session=${screen.sessionId}`;
    case 'bookings': {
      const query = new URLSearchParams();
      if (screen.q) query.set('q', screen.q);
      if (screen.date) query.set('date', screen.date);
      return query.size ? `/bookings?${query}` : '/bookings';
    }
    case 'booking':
      return `/bookings/${encodeURIComponent(screen.orderNumber)}`;
    case 'tickets':
      return `/bookings/${encodeURIComponent(screen.orderNumber)}/tickets${screen.size === 'a4' ? '?size=a4' : ''}`;
    case 'receipt':
      return `/bookings/${encodeURIComponent(screen.orderNumber)}/receipt/${screen.paymentId}`;
    case 'settings':
      return '/settings';
    case 'scan':
      return screen.sessionId === null ? '/scan' : `/scan?session=${screen.sessionId}`;
    case 'pair':
      return '/pair';
    case 'week':
      return screen.from ? `/week?from=${screen.from}` : '/week';
    case 'overrides':
      return screen.date ? `/overrides?date=${screen.date}` : '/overrides';
    case 'runsheet':
      return `/sessions/${screen.sessionId}/pickups`;
    default:
      return boardDate ? `/?date=${boardDate}` : '/';
  }
}
