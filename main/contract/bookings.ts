import { z } from 'zod';
import { idParam, nonNegInt, num, opt, text } from './common';
import { customerAnswerSchema, customerSchema } from './customers';
import { pickupLocationSchema } from './pickups';
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

/*
 * The answers. These shapes type what the engine answers (`Booking`, `BookingQuote`), so a renamed
 * field is a compile error in the domain that builds them and the API that sends them. Optional
 * fields are left out of an answer when they have no value (never null).
 */

export const bookingQuantityAnswerSchema = z.object({ optionId: z.number(), optionLabel: z.string(), optionPrice: z.number(), value: z.number() });

export const bookingExtraAnswerSchema = z.object({
  id: z.number(),
  name: z.string(),
  extraPriceType: z.string(),
  price: z.number(),
  quantity: z.number(),
  description: z.string().optional(),
});

export const participantAnswerSchema = z.object({ fields: z.array(bookingFieldSchema), barcode: z.string().optional() });

/** A pickup location as chosen for an item, with its pickup time and instructions. */
export const pickupChoiceSchema = pickupLocationSchema.extend({ pickupInstructions: z.string().optional(), pickupTime: z.string().optional() });

export const taxAnswerSchema = z.object({ label: z.string().nullable(), taxType: z.string().nullable(), priceInclusive: z.boolean(), compound: z.boolean(), amount: z.number() });

export const VOUCHER_STATUSES = ['ISSUED', 'REDEEMED', 'PARTIALLY_REDEEMED', 'EXPIRED'] as const;

/** A gift voucher the item issued (a GIFT_CARD product). */
export const issuedVoucherAnswerSchema = z.object({
  code: z.string(),
  status: z.enum(VOUCHER_STATUSES),
  issueDate: z.string(),
  valueType: z.string(),
  sourceOrder: z.string(),
  value: z.number().optional(),
  expiryDate: z.string().optional(),
});

export const bookingItemAnswerSchema = z.object({
  productCode: z.string(),
  productName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  startTimeLocal: z.string(),
  endTimeLocal: z.string(),
  amount: z.number(),
  subtotal: z.number(),
  totalQuantity: z.number(),
  allDay: z.literal(true).optional(),
  commission: z.number().optional(),
  quantities: z.array(bookingQuantityAnswerSchema),
  extras: z.array(bookingExtraAnswerSchema),
  participants: z.array(participantAnswerSchema),
  barcode: z.string().optional(),
  pickupLocation: pickupChoiceSchema.optional(),
  taxes: z.array(taxAnswerSchema).optional(),
  vouchers: z.array(issuedVoucherAnswerSchema),
});

export const voucherRedemptionAnswerSchema = z.object({ code: z.string(), amount: z.number(), reversed: z.string().optional() });

export const paymentAnswerSchema = z.object({
  id: z.number(),
  amount: z.number(),
  currency: z.string(),
  type: z.string().optional(),
  recipient: z.string().optional(),
  label: z.string().optional(),
  date: z.string().optional(),
  refund: z.literal(true).optional(),
  /** Recorded with an agent key: money the agent says it took (the booking's reseller), not the supplier's desk. */
  recordedBy: z.literal('AGENT').optional(),
  /** The name of the key that recorded it (as it was then) and the device it was taken on (TourDesk extension). */
  takenBy: z.string().optional(),
  device: z.string().optional(),
});

export const bookingAnswerSchema = z.object({
  orderNumber: z.string(),
  status: z.enum(BOOKING_STATUSES),
  supplierId: z.number(),
  supplierName: z.string(),
  supplierAlias: z.string(),
  resellerId: z.number().optional(),
  resellerName: z.string().optional(),
  resellerAlias: z.string().optional(),
  resellerComments: z.string().optional(),
  resellerReference: z.string().optional(),
  /** Supplier keys only. */
  internalNotes: z.string().optional(),
  comments: z.string().optional(),
  source: z.string().optional(),
  sourceChannel: z.string().optional(),
  createdBy: userSchema.optional(),
  resellerUser: userSchema.optional(),
  customer: customerAnswerSchema.optional(),
  fields: z.array(bookingFieldSchema),
  barcode: z.string().optional(),
  items: z.array(bookingItemAnswerSchema),
  /** The codes of the vouchers redeemed on this booking. */
  vouchers: z.array(z.string()),
  voucherRedemptions: z.array(voucherRedemptionAnswerSchema),
  payments: z.array(paymentAnswerSchema),
  totalCommission: z.number().optional(),
  totalAmount: z.number(),
  totalCurrency: z.string(),
  totalPaid: z.number(),
  totalDue: z.number(),
  dateCreated: z.string(),
  dateUpdated: z.string(),
  dateConfirmed: z.string().optional(),
  dateCancelled: z.string().optional(),
});

/** A quote is a booking that was never kept: no order number, status, dates, codes or payment ids. */
export const bookingQuoteSchema = bookingAnswerSchema
  .omit({ orderNumber: true, status: true, dateCreated: true, dateUpdated: true, dateConfirmed: true, barcode: true, voucherRedemptions: true })
  .extend({
    items: z.array(bookingItemAnswerSchema.omit({ vouchers: true, barcode: true }).extend({ participants: z.array(participantAnswerSchema.omit({ barcode: true })) })),
    payments: z.array(paymentAnswerSchema.omit({ id: true })),
  });

export type Booking = z.infer<typeof bookingAnswerSchema>;
export type BookingQuote = z.infer<typeof bookingQuoteSchema>;
export type BookingItem = z.infer<typeof bookingItemAnswerSchema>;
export type BookingExtra = z.infer<typeof bookingExtraAnswerSchema>;
export type Participant = z.infer<typeof participantAnswerSchema>;
export type IssuedVoucher = z.infer<typeof issuedVoucherAnswerSchema>;
export type VoucherRedemption = z.infer<typeof voucherRedemptionAnswerSchema>;
export type Payment = z.infer<typeof paymentAnswerSchema>;

/** GET /v1/bookings. */
export type BookingList = { bookings: Booking[] };
