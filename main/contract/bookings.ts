import { z } from 'zod';
import { idParam, nonNegInt, num, opt, text } from './common';
import { customerSchema } from './customers';
import { bookingFieldSchema } from './products';
import { BOOKING_STATUSES, CURRENCIES } from './enums';

const userSchema = z.object({ code: opt(text(200)), email: opt(text(320)), firstName: opt(text(200)), lastName: opt(text(200)) });

export const quantitySchema = z.object({
  optionId: opt(idParam),
  optionLabel: opt(text(120)),
  optionPrice: opt(num),
  value: nonNegInt,
});

export const extraSchema = z.object({
  id: idParam,
  name: opt(text(500)),
  description: opt(text(10_000)),
  extraPriceType: opt(z.enum(['ANY', 'FIXED', 'QUANTITY'])),
  price: opt(num),
  quantity: opt(nonNegInt),
});

export const participantSchema = z.object({
  fields: opt(z.array(bookingFieldSchema).max(100)),
  barcode: opt(z.string()),
});

export const itemSchema = z.object({
  productCode: z.string().trim().min(1, 'must not be empty').max(40),
  startTime: opt(z.string()),
  startTimeLocal: opt(z.string()),
  endTime: opt(z.string()),
  endTimeLocal: opt(z.string()),
  amount: opt(num.pipe(z.number().min(0, 'must not be negative'))),
  subtotal: opt(num),
  quantities: opt(z.array(quantitySchema).max(100)),
  extras: opt(z.array(extraSchema).max(100)),
  participants: opt(z.array(participantSchema).max(1000)),
  pickupLocation: opt(z.object({ locationName: opt(text(500)) })),
});

export const paymentSchema = z.object({
  type: opt(z.string().trim().toUpperCase().max(40)),
  amount: num.pipe(z.number().positive('must be greater than 0')),
  currency: opt(z.enum(CURRENCIES)),
  recipient: opt(text(200)),
  label: opt(text(500)),
  date: opt(text(40)),
});

export const bookingSchema = z.object({
  status: opt(z.enum(BOOKING_STATUSES)),
  /** Supplier keys only; an agent key's own reseller always wins. */
  resellerId: opt(idParam),
  customer: opt(customerSchema),
  fields: opt(z.array(bookingFieldSchema).max(200)),
  items: z.array(itemSchema).min(1, 'a booking needs at least one item').max(50),
  resellerComments: opt(text(10_000)),
  resellerReference: opt(text(200)),
  internalNotes: opt(text(10_000)),
  comments: opt(text(10_000)),
  sourceChannel: opt(text(200)),
  createdBy: opt(userSchema),
  resellerUser: opt(userSchema),
  payments: opt(z.array(paymentSchema).max(100)),
  vouchers: opt(z.array(z.string().max(100)).max(20)),
});

/** PUT sends a whole booking as read; items may be left out (they are then kept as they are). */
export const bookingUpdateSchema = bookingSchema.extend({
  items: opt(z.array(itemSchema.extend({ productCode: opt(z.string().trim().max(40)) })).max(50)),
});

export type BookingBody = z.infer<typeof bookingSchema>;
export type BookingUpdateBody = z.infer<typeof bookingUpdateSchema>;
export type ItemBody = z.infer<typeof itemSchema>;
export type PaymentBody = z.infer<typeof paymentSchema>;
export type BookingFieldBody = z.infer<typeof bookingFieldSchema>;
