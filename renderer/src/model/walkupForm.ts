import type { Booking, PriceOptionAnswer } from '../api/types';
import { participantLabel } from '../lib/formats';

/** The walk-up form's values; pure helpers turn them into the POST /v1/bookings body. */
export interface WalkUpForm {
  quantities: Record<number, number>;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  participantNames: string[];
  pickup: string;
  paymentType: '' | 'CASH' | 'CREDITCARD';
  paymentAmount: string;
}

export const emptyForm = (): WalkUpForm => ({ quantities: {}, firstName: '', lastName: '', phone: '', email: '', participantNames: [], pickup: '', paymentType: 'CASH', paymentAmount: '' });

export const totalQuantity = (form: WalkUpForm) => Object.values(form.quantities).reduce((sum, n) => sum + (n || 0), 0);

export function bookingBody(form: WalkUpForm, session: { productCode: string; startTime: string }, options: PriceOptionAnswer[], currency: string | null, quotedTotal: number | null) {
  const count = totalQuantity(form);
  const customer = { firstName: form.firstName.trim() || undefined, lastName: form.lastName.trim() || undefined, phone: form.phone.trim() || undefined, email: form.email.trim() || undefined };
  const amount = form.paymentAmount.trim() ? Number(form.paymentAmount) : quotedTotal;
  return {
    customer: Object.values(customer).some(Boolean) ? customer : undefined,
    sourceChannel: 'Walk-up',
    items: [
      {
        productCode: session.productCode,
        startTime: session.startTime,
        quantities: options.filter((o) => (form.quantities[o.id] ?? 0) > 0).map((o) => ({ optionId: o.id, value: form.quantities[o.id] })),
        participants: Array.from({ length: count }, (_, i) => ({ fields: form.participantNames[i]?.trim() ? [{ label: 'Full Name', value: form.participantNames[i].trim() }] : [] })),
        pickupLocation: form.pickup ? { locationName: form.pickup } : undefined,
      },
    ],
    payments: form.paymentType && amount && amount > 0 ? [{ type: form.paymentType, amount, currency: currency ?? undefined }] : undefined,
  };
}

/**
 * What stops the booking before it is sent, in words a desk reads (null: nothing): more seats than
 * the departure has left (a family ticket takes its seatsUsed), or an amount paid that is not a
 * sum of money or is more than the total (a typo far more often than a tip: take the total, give change).
 */
export function formProblem(form: WalkUpForm, options: readonly Pick<PriceOptionAnswer, 'id' | 'seatsUsed'>[], seatsAvailable: number | null, quotedTotal: number | null): string | null {
  const seats = options.reduce((n, o) => n + (form.quantities[o.id] ?? 0) * (o.seatsUsed ?? 1), 0);
  if (seatsAvailable !== null && seats > seatsAvailable) return `Only ${seatsAvailable} ${seatsAvailable === 1 ? 'seat' : 'seats'} left on this departure; these tickets take ${seats}.`;
  const paid = form.paymentAmount.trim();
  if (!form.paymentType || paid === '') return null;
  const amount = Number(paid);
  if (!Number.isFinite(amount) || amount < 0) return `Amount paid must be a sum of money, like ${(quotedTotal ?? 0).toFixed(2)}.`;
  if (quotedTotal !== null && amount > quotedTotal) return `Amount paid (${amount.toFixed(2)}) is more than the total (${quotedTotal.toFixed(2)}): take the total and give change.`;
  return null;
}

/** Every code the booking carries (participants' own, an item's or the order's), to show as QR codes. */
export function codesOf(booking: Booking): { label: string; code: string }[] {
  const out: { label: string; code: string }[] = [];
  if (booking.barcode) out.push({ label: 'Order', code: booking.barcode });
  for (const item of booking.items) {
    if (item.barcode) out.push({ label: 'Item', code: item.barcode });
    item.participants.forEach((p, i) => {
      const name = p.fields.find((f) => /name/i.test(f.label ?? ''))?.value;
      if (p.barcode) out.push({ label: participantLabel({ name, position: i }), code: p.barcode });
    });
  }
  return out;
}
