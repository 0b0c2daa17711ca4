import type { Booking, PriceOptionAnswer } from '../api/types';

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

/** Every code the booking carries (participants' own, an item's or the order's), to show as QR codes. */
export function codesOf(booking: Booking): { label: string; code: string }[] {
  const out: { label: string; code: string }[] = [];
  if (booking.barcode) out.push({ label: 'Order', code: booking.barcode });
  for (const item of booking.items) {
    if (item.barcode) out.push({ label: 'Item', code: item.barcode });
    item.participants.forEach((p, i) => {
      const name = p.fields.find((f) => /name/i.test(f.label ?? ''))?.value;
      if (p.barcode) out.push({ label: name || `Participant ${i + 1}`, code: p.barcode });
    });
  }
  return out;
}
