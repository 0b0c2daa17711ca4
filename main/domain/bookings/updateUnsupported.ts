import type { Booking, BookingUpdateBody } from '../../contract/bookings';
import { DomainError } from '../errors';
import { toMinor } from '../money';
import { parseTimeParam } from '../time';

/**
 * PUT sends a whole booking as read. What the spec does not let PUT change (payments, vouchers,
 * createdBy, resellerUser, item extras, subtotal, endTime/endTimeLocal) may be left out or repeated
 * as GET answered it; a different value is refused naming the field, never silently dropped.
 */
export const refuseChange = (message: string) =>
  new DomainError('VALIDATION_ERROR', `${message}; PUT changes only status, customer, fields, participant fields, resellerComments, resellerReference and pickupLocation.locationName`);

/** Objects compared by content: key order, and keys without a value, do not count. */
function sameContent(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([, x]) => x !== undefined && x !== null)
          .sort(([k1], [k2]) => (k1 < k2 ? -1 : 1))
          .map(([k, x]) => [k, norm(x)]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(a ?? null)) === JSON.stringify(norm(b ?? null));
}

const sameInstant = (sent: string, answered: string | undefined, zone: string, field: string) => answered !== undefined && parseTimeParam(sent, zone, 'lower', field) === Date.parse(answered);
const sameLocal = (sent: string, answered: string | undefined) => answered !== undefined && sent.trim().replace('T', ' ') === answered;

export function checkUnsupportedUnchanged(body: BookingUpdateBody, asRead: Booking, zone: string): void {
  const currency = asRead.totalCurrency;
  const money = (amount: number) => toMinor(amount, currency);
  for (const field of ['createdBy', 'resellerUser'] as const) {
    if (body[field] !== undefined && !sameContent(body[field], asRead[field])) throw refuseChange(`${field} cannot change`);
  }
  if (body.vouchers !== undefined) {
    const sent = body.vouchers.map((c) => c.trim().toUpperCase()).filter(Boolean).sort();
    if (!sameContent(sent, [...asRead.vouchers].sort())) throw refuseChange('vouchers cannot change (codes are redeemed at create only)');
  }
  if (body.payments !== undefined) {
    if (body.payments.length !== asRead.payments.length) throw refuseChange(`payments cannot change: the booking has ${asRead.payments.length}, the body ${body.payments.length}`);
    body.payments.forEach((p, i) => {
      const stored = asRead.payments[i];
      const differs =
        money(p.amount) !== money(stored.amount) ||
        (p.currency !== undefined && p.currency !== stored.currency) ||
        (p.type !== undefined && p.type !== stored.type) ||
        (p.recipient !== undefined && p.recipient !== stored.recipient) ||
        (p.label !== undefined && p.label !== stored.label) ||
        (p.date !== undefined && !sameInstant(p.date, stored.date, zone, `payments[${i}].date`));
      if (differs) throw refuseChange(`payments[${i}] cannot change`);
    });
  }
  (body.items ?? []).forEach((given, index) => {
    const stored = asRead.items[index];
    if (!stored) return; // the item count is checked with the items
    const where = `items[${index}]`;
    if (given.subtotal !== undefined && money(given.subtotal) !== money(stored.subtotal)) throw refuseChange(`${where}.subtotal cannot change`);
    if (given.endTime !== undefined && !sameInstant(given.endTime, stored.endTime, zone, `${where}.endTime`)) throw refuseChange(`${where}.endTime cannot change`);
    if (given.endTimeLocal !== undefined && !sameLocal(given.endTimeLocal, stored.endTimeLocal)) throw refuseChange(`${where}.endTimeLocal cannot change`);
    if (given.extras !== undefined) {
      const same =
        given.extras.length === stored.extras.length &&
        given.extras.every((e, ei) => {
          const s = stored.extras[ei];
          return e.id === s.id && (e.quantity === undefined || e.quantity === s.quantity) && (e.price === undefined || money(e.price) === money(s.price));
        });
      if (!same) throw refuseChange(`${where}.extras cannot change`);
    }
  });
}
