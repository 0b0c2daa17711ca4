import { z } from 'zod';
import { num, opt, text } from './common';
import { CURRENCIES } from './enums';
import type { Booking } from './bookings';

/** The payment types the desk takes (the API's payment types a person can hand over at a counter). */
export const DESK_PAYMENT_TYPES = ['CASH', 'CREDITCARD', 'OTHER'] as const;
export type DeskPaymentType = (typeof DESK_PAYMENT_TYPES)[number];

/**
 * POST /v1/bookings/{orderNumber}/payments: the desk takes (part of) the balance. `paymentRef` is the
 * device's id for this payment: sent again (an outbox retry after a lost answer) it is recorded once.
 * `takenAt` is when the device took it (a payment queued offline reaches the engine later).
 */
export const takePaymentSchema = z.object({
  paymentRef: opt(z.string().trim().min(8, 'must be at least 8 characters').max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _')),
  type: z.string().trim().toUpperCase().pipe(z.enum(DESK_PAYMENT_TYPES, { message: `must be one of ${DESK_PAYMENT_TYPES.join(', ')}` })),
  amount: num.pipe(z.number().positive('must be greater than 0')),
  currency: opt(z.enum(CURRENCIES)),
  device: opt(text(100)),
  label: opt(text(500)),
  takenAt: opt(text(40)),
});

export type TakePaymentBody = z.infer<typeof takePaymentSchema>;

/** The booking as the payment leaves it (its payments, totalPaid and totalDue). */
export interface TakePaymentAnswer {
  booking: Booking;
}
