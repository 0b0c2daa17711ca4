import { DateTime } from 'luxon';
import { z } from 'zod';
import { qString } from './query';
import { bookingContextSchema, participantCheckinSchema } from './manifest';

/**
 * GET /v1/checkin/device-copy: what a scanner device keeps to give the engine's verdict offline, for
 * a window of days (the company's local dates, `from` to `to` inclusive). Without `since` the answer
 * is the whole window (`full: true`); with the `cursor` of an earlier answer for the same window,
 * only the bookings that changed since (the sessions and products come whole, they are small), or
 * the whole window again with `full: true` and a `restart` reason when the cursor can no longer say.
 */

/** The longest window a device may ask for, in days (a season's worth would not fit on a phone). */
export const MAX_WINDOW_DAYS = 14;

const qDate = (field: string) =>
  qString.pipe(
    z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date as YYYY-MM-DD`)
      .refine((day) => DateTime.fromISO(day).isValid, `${field} must be a date that exists, as YYYY-MM-DD`),
  );

export const deviceCopyQuery = z
  .object({
    from: qDate('from'),
    to: qDate('to'),
    /** The `cursor` of the last answer this device merged; omitted for a whole copy. */
    since: qString.pipe(z.string().trim().min(1).max(200, 'since is not a cursor this engine gave')).optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] })
  .refine((q) => DateTime.fromISO(q.to).diff(DateTime.fromISO(q.from), 'days').days < MAX_WINDOW_DAYS, {
    message: `the window may span at most ${MAX_WINDOW_DAYS} days`,
    path: ['to'],
  });
export type DeviceCopyQuery = z.infer<typeof deviceCopyQuery>;

/** A departure in the window, with whether check-in is closed for it now. */
export const deviceSessionSchema = z.object({
  id: z.number(),
  productCode: z.string(),
  productName: z.string(),
  /** Its capacity: seats left are this less the seats of its live bookings in the copy, as availability counts them. */
  seats: z.number(),
  startTime: z.string(),
  startTimeLocal: z.string(),
  checkinClosed: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

/** A product's check-in settings the scan rules weigh. */
export const deviceProductSchema = z.object({
  productCode: z.string(),
  /** Check-in opens this many minutes before the start; null: always open. */
  checkinOpensMinutesBefore: z.number().nullable(),
  checkinRequiresPayment: z.boolean(),
  enforceRequiredFields: z.boolean(),
});
export type DeviceProduct = z.infer<typeof deviceProductSchema>;

/** A participant as the device weighs them: their code, their check-in, and the required fields they lack. */
export const deviceParticipantSchema = z.object({
  id: z.number(),
  position: z.number(),
  name: z.string().nullable(),
  barcode: z.string().nullable(),
  checkin: participantCheckinSchema,
  /** Labels of the product's required fields this participant has not filled. */
  missing: z.array(z.string()),
});
export type DeviceParticipant = z.infer<typeof deviceParticipantSchema>;

/** One booking's part in one departure of the window: every booking the engine knows, cancelled ones too. */
export const deviceBookingSchema = z.object({
  sessionId: z.number(),
  /** The booking as a guide sees it (status, customer, payment, notes). */
  context: bookingContextSchema,
  /** Seats it holds on this departure, as availability counts them (Σ quantity × seatsUsed: a Family 2+2 ticket is 4). */
  seats: z.number(),
  /** false for a cancelled (or abandoned) booking: its codes scan as CANCELLED. */
  live: z.boolean(),
  cancelledAtLocal: z.string().nullable(),
  orderCodes: z.array(z.string()),
  /** Codes a reissue replaced: they scan as CODE REVOKED. */
  revokedCodes: z.array(z.object({ code: z.string(), participantId: z.number().nullable(), revokedAtLocal: z.string() })),
  participants: z.array(deviceParticipantSchema),
});
export type DeviceBooking = z.infer<typeof deviceBookingSchema>;

export const deviceCopySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** true: this answer is the whole window and replaces what the device holds; false: changes only. */
  full: z.boolean(),
  /** Why a `since` was answered with the whole window (unknown cursor, another window, too old, too much changed). */
  restart: z.string().nullable(),
  /** Send as `since` next time. */
  cursor: z.string(),
  /** Every departure in the window (always whole). */
  sessions: z.array(deviceSessionSchema),
  /** The products of those departures (always whole). */
  products: z.array(deviceProductSchema),
  /** With `full: false`: the orders this answer replaces (their entries below, none if they left the window). */
  changedOrders: z.array(z.string()),
  bookings: z.array(deviceBookingSchema),
});
export type DeviceCopy = z.infer<typeof deviceCopySchema>;
