import { z } from 'zod';
import { EVENT_KINDS } from './enums';
import { EVENT_OVERRIDABLE_RULES } from './manifestRequests';

/** The /v1/manifest operations: what they take (manifestRequests.ts, re-exported here) and what they answer. */
export * from './manifestRequests';

/*
 * The answers. Types only at run time (the domain builds them, nothing re-parses them), so a
 * renamed field is a compile error in the domain and the routes; the schemas also describe the
 * answers for OpenAPI and the renderer. Every field listed is always present unless marked optional.
 */

/** Every scan result; the first six are the spec's, the rest TourDesk's second pass. */
export const SCAN_RESULTS = [
  'CHECKED_IN', 'ALREADY_CHECKED_IN', 'WRONG_SESSION', 'BOOKING_CANCELLED', 'NOT_PAID', 'UNKNOWN_CODE',
  'CHECKIN_CLOSED', 'NOT_YET_OPEN', 'CODE_REVOKED', 'INCOMPLETE',
] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];

/** Rules a guide may override with `override: true`; each overridden one is recorded. */
export const OVERRIDABLE_RULES = ['WRONG_SESSION', 'CHECKIN_CLOSED', 'NOT_YET_OPEN', 'ALREADY_CHECKED_IN', 'NOT_PAID', 'INCOMPLETE'] as const;
export type OverridableRule = (typeof OVERRIDABLE_RULES)[number];

/** Why a booking or participant wants the guide's attention, in this order. */
export const ATTENTION_REASONS = ['NOTE', 'UNPAID', 'SPECIAL_FIELD', 'INCOMPLETE'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export const PARTICIPANT_STATUSES = ['CHECKED_IN', 'NO_SHOW', 'EXPECTED'] as const;
export const MATCHED_ON = ['ORDER_NUMBER', 'CUSTOMER_NAME', 'PHONE', 'PARTICIPANT_NAME'] as const;
export type MatchedOn = (typeof MATCHED_ON)[number];

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();

/** A booking or participant field as the client sent it (other keys it sent are kept). */
export const bookingFieldAnswerSchema = z.looseObject({ label: z.string(), value: z.unknown().optional(), fieldType: z.string().optional() });
export type BookingFieldAnswer = z.infer<typeof bookingFieldAnswerSchema>;

export const countsSchema = z.object({ booked: z.number(), checkedIn: z.number(), noShow: z.number(), remaining: z.number() });
export type Counts = z.infer<typeof countsSchema>;

/** A participant's check-in: just the state when no event made it (expected, or a no-show by closing). */
export const participantCheckinSchema = z.union([
  z.object({ state: z.enum(PARTICIPANT_STATUSES), at: z.string(), atLocal: z.string(), by: nullableString, device: nullableString, eventId: z.string() }),
  z.object({ state: z.enum(PARTICIPANT_STATUSES) }),
]);
export type ParticipantCheckin = z.infer<typeof participantCheckinSchema>;

/** One entry of a participant's check-in history, oldest first. */
export const historyEntrySchema = z.object({
  eventId: z.string(),
  kind: z.string(),
  result: nullableString,
  occurredAt: z.string(),
  occurredAtLocal: z.string(),
  recordedAt: z.string(),
  device: nullableString,
  by: nullableString,
  undoesEventId: nullableString,
  /** The override recorded with the event ({ rules, by, … }), or null. */
  override: z.unknown(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const participantRowSchema = z.object({
  id: z.number(),
  position: z.number(),
  name: nullableString,
  fields: z.array(bookingFieldAnswerSchema),
  barcode: nullableString,
  checkin: participantCheckinSchema,
});
export type ParticipantRow = z.infer<typeof participantRowSchema>;

export const customerAnswerSchema = z.object({ name: nullableString, firstName: nullableString, lastName: nullableString, phone: nullableString });
export type CustomerAnswer = z.infer<typeof customerAnswerSchema>;

export const pickupAnswerSchema = z.looseObject({ locationName: z.string() });
export type PickupAnswer = z.infer<typeof pickupAnswerSchema>;

export const paymentAnswerSchema = z.object({
  totalAmount: z.number(),
  totalPaid: z.number(),
  totalDue: z.number(),
  totalCurrency: z.string(),
  paid: z.boolean(),
  /** Of totalPaid, what an agent key recorded: taken by the agent, not at the supplier's desk (left out when none). */
  paidToAgent: z.number().optional(),
});
export type PaymentAnswer = z.infer<typeof paymentAnswerSchema>;

/** The booking context a guide sees next to a participant (manifest rows, scans, search hits). */
export const bookingContextSchema = z.object({
  orderNumber: z.string(),
  status: z.string(),
  customer: customerAnswerSchema,
  quantities: z.array(z.object({ optionId: z.number(), optionLabel: z.string(), value: z.number() })),
  extras: z.array(z.object({ name: z.string(), quantity: z.number() })),
  pickup: pickupAnswerSchema.nullable(),
  payment: paymentAnswerSchema,
  resellerName: nullableString,
  resellerReference: nullableString,
  notes: z.object({ internalNotes: nullableString, comments: nullableString, resellerComments: nullableString }),
  fields: z.array(bookingFieldAnswerSchema),
  attention: z.boolean(),
  attentionReasons: z.array(z.enum(ATTENTION_REASONS)),
});
export type BookingContext = z.infer<typeof bookingContextSchema>;

/**
 * Sync left the session holding more seats than it has (two instances sold the last seats while
 * apart): every booking stays; a person looks, and acknowledges this set of bookings through
 * POST /v1/sync/conflicts/:sessionId/acknowledge. A changed set reopens it.
 */
export const sessionOversoldSchema = z.object({
  capacity: z.number(),
  seatsHeld: z.number(),
  bookingSet: z.string(),
  bookings: z.array(z.object({ orderNumber: z.string(), seats: z.number() })),
  acknowledged: z.boolean(),
});
export type SessionOversold = z.infer<typeof sessionOversoldSchema>;

/** The session as a manifest and the day board show it. */
export const manifestSessionSchema = z.object({
  id: z.number(),
  productCode: z.string(),
  productName: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  startTimeLocal: z.string(),
  endTimeLocal: z.string(),
  seats: z.number(),
  /**
   * seats − seatsBooked, the number GET /v1/availability answers for the session: negative when it is
   * oversold (sync, or capacity cut below what is booked).
   */
  seatsAvailable: z.number(),
  /** Seats the live bookings hold: Σ quantity × seatsUsed (a Family 2+2 ticket is 4, a charter's boat option all of it). */
  seatsBooked: z.number(),
  checkinClosed: z.boolean(),
  /**
   * TourDesk extension: which codes the product's bookings get to scan (PARTICIPANT: one each, ORDER:
   * one per order), or null when the product sets no `qrCodeType` and its bookings get none.
   */
  ticketCodes: z.enum(['PARTICIPANT', 'ORDER']).nullable().optional(),
  /** null unless the session is oversold (see sessionOversoldSchema). */
  oversold: sessionOversoldSchema.nullable(),
});
export type ManifestSession = z.infer<typeof manifestSessionSchema>;

export const manifestBookingSchema = bookingContextSchema.extend({
  /** The booking's order codes (each checks in the whole booking): a scanner holding the manifest decides them offline. */
  orderCodes: z.array(z.string()),
  /** Seats the booking holds on this session, as availability counts them (Σ quantity × seatsUsed: a Family 2+2 ticket is 4). */
  seats: z.number(),
  participants: z.array(participantRowSchema.extend({ history: z.array(historyEntrySchema) })),
});
export type ManifestBooking = z.infer<typeof manifestBookingSchema>;

export const cancelledBookingSchema = z.object({
  orderNumber: z.string(),
  status: z.string(),
  customer: customerAnswerSchema,
  participantCount: z.number(),
  cancelledAt: z.string(),
  cancelledAtLocal: z.string(),
  /** Who was booked: the desk lists them marked cancelled, admitted only by a named override. */
  participants: z.array(z.object({ id: z.number(), position: z.number(), name: nullableString, checkin: participantCheckinSchema })),
});
export type CancelledBooking = z.infer<typeof cancelledBookingSchema>;

/** A device's check-in that disagrees with the booking (it was cancelled meanwhile): for the office to look at. */
export const manifestConflictSchema = z.object({ kind: z.literal('CHECKED_IN_BUT_CANCELLED'), orderNumber: z.string(), participantId: z.number(), eventId: z.string(), message: z.string() });
export type ManifestConflict = z.infer<typeof manifestConflictSchema>;

export const pickupTotalsSchema = countsSchema.extend({ locationName: nullableString });
export type PickupTotals = z.infer<typeof pickupTotalsSchema>;

export const sessionResourceSchema = z.object({ id: z.number(), name: z.string(), resourceType: nullableString, seats: nullableNumber, resourceOrder: nullableNumber });

/** GET /v1/manifest's `manifest`. */
export const manifestSchema = z.object({
  session: manifestSessionSchema,
  bookings: z.array(manifestBookingSchema),
  cancelled: z.array(cancelledBookingSchema),
  conflicts: z.array(manifestConflictSchema),
  totals: countsSchema,
  pickupTotals: z.array(pickupTotalsSchema),
  resources: z.array(sessionResourceSchema),
  /** The manifest's fingerprint when it was read: GET /v1/manifest/version answers a different one once anything in it changed. */
  version: z.string(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** GET /v1/manifest/version's `manifestVersion`: poll it, and fetch the manifest again only when `version` moved. */
export const manifestVersionSchema = z.object({ sessionId: z.number(), version: z.string() });
export type ManifestVersion = z.infer<typeof manifestVersionSchema>;

/** One row of GET /v1/manifest/day's `sessions`. */
export const dayBoardSessionSchema = manifestSessionSchema.extend(countsSchema.shape).extend({
  /** The session's resources (boats, guides, vehicles), in their order. */
  resources: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Seats of live bookings collected from a pickup point (a Family 2+2 ticket with a pickup is 4). */
  pickupCount: z.number(),
});
export type DayBoardSession = z.infer<typeof dayBoardSessionSchema>;

/** A participant in a scan answer or a search hit: the manifest row, with what is missing and the history. */
export const scanParticipantSchema = participantRowSchema.extend({ missingFields: z.array(z.string()), history: z.array(historyEntrySchema) });
export type ScanParticipant = z.infer<typeof scanParticipantSchema>;

/** One of GET /v1/manifest/search's `matches`. */
export const searchHitSchema = z.object({
  session: z.object({ id: z.number(), productCode: z.string(), productName: z.string(), startTime: z.string(), startTimeLocal: z.string(), checkinClosed: z.boolean() }),
  matchedOn: z.array(z.enum(MATCHED_ON)),
  matchedParticipantIds: z.array(z.number()),
  attention: z.boolean(),
  attentionReasons: z.array(z.enum(ATTENTION_REASONS)),
  booking: bookingContextSchema,
  participants: z.array(scanParticipantSchema),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/** A scan of a code no booking has. */
export const unknownCodeScanSchema = z.object({ eventId: z.string(), result: z.literal('UNKNOWN_CODE'), checkedIn: z.literal(false), code: z.string(), message: z.string() });

/** A scan of a code whose item has no session (or was revoked): the booking's participants, nothing checked in. */
export const unscheduledScanSchema = z.object({
  eventId: z.string(),
  result: z.enum(['CODE_REVOKED', 'WRONG_SESSION']),
  checkedIn: z.literal(false),
  code: z.string(),
  orderNumber: z.string(),
  belongsTo: z.null(),
  overrides: z.array(z.enum(OVERRIDABLE_RULES)),
  message: z.string(),
  attention: z.boolean(),
  attentionReasons: z.array(z.enum(ATTENTION_REASONS)),
  participants: z.array(z.object({ id: z.number(), position: z.number(), name: nullableString, fields: z.array(bookingFieldAnswerSchema), barcode: nullableString, history: z.array(historyEntrySchema) })),
});

/** A scan of a scheduled booking's code: the decision, the sentence to read aloud and the whole context. */
export const sessionScanSchema = z.object({
  eventId: z.string(),
  result: z.enum(SCAN_RESULTS),
  checkedIn: z.boolean(),
  message: z.string(),
  code: z.string(),
  overrides: z.array(z.enum(OVERRIDABLE_RULES)),
  belongsTo: z.object({ sessionId: z.number(), productCode: z.string(), productName: z.string(), startTime: z.string(), startTimeLocal: z.string() }).nullable(),
  attention: z.boolean(),
  attentionReasons: z.array(z.enum(ATTENTION_REASONS)),
  missingFields: z.array(z.string()),
  checkinOpensAtLocal: nullableString,
  revokedCode: z.object({ code: z.string(), revokedAtLocal: z.string(), orderNumber: z.string() }).nullable(),
  session: z.object({ id: z.number(), productCode: z.string(), productName: z.string(), startTimeLocal: z.string() }),
  booking: bookingContextSchema,
  participants: z.array(scanParticipantSchema),
  checkedInParticipantIds: z.array(z.number()),
});

/** POST /v1/manifest/scan's `scan`. */
export const scanAnswerSchema = z.union([unknownCodeScanSchema, unscheduledScanSchema, sessionScanSchema]);
export type ScanAnswer = z.infer<typeof scanAnswerSchema>;
export type UnknownCodeScan = z.infer<typeof unknownCodeScanSchema>;
export type UnscheduledScan = z.infer<typeof unscheduledScanSchema>;
export type SessionScan = z.infer<typeof sessionScanSchema>;

/** A device event stored as sent, with any disagreement with the booking (cancelled meanwhile). */
export const recordedEventSchema = z.object({
  eventId: z.string(),
  kind: z.enum(EVENT_KINDS),
  result: z.literal('RECORDED'),
  sessionId: z.number(),
  participantId: nullableNumber,
  undoesEventId: nullableString,
  occurredAt: z.string(),
  conflict: nullableString,
  /** The rules this CHECK_IN overrode (recorded with who did it); absent when none applied. */
  overrides: z.array(z.enum(EVENT_OVERRIDABLE_RULES)).optional(),
});
export const rejectedEventSchema = z.object({
  eventId: z.string(),
  kind: z.enum(EVENT_KINDS),
  result: z.literal('REJECTED'),
  message: z.string(),
  /** For a CHECK_IN the scan rules refuse: the rule, which a resend naming it in `override` admits (if it may be overridden). */
  rule: z.enum(SCAN_RESULTS).optional(),
  overridable: z.boolean().optional(),
});

/**
 * One of POST /v1/manifest/events' `events`. A resent eventId answers its first answer: the recorded
 * one, a bare RECORDED for an event stored without one, or a scan's when the id was a scan's.
 */
export const eventAnswerSchema = z.union([recordedEventSchema, rejectedEventSchema, z.object({ eventId: z.string(), result: z.literal('RECORDED') }), scanAnswerSchema]);
export type RecordedEvent = z.infer<typeof recordedEventSchema>;
export type RejectedEvent = z.infer<typeof rejectedEventSchema>;
export type EventAnswer = z.infer<typeof eventAnswerSchema>;

/** How one session's manifest version moved while events were recorded (the desk refetches only when `before` was not what it held). */
export const manifestVersionChangeSchema = z.object({ sessionId: z.number(), before: z.string(), after: z.string() });

/** POST /v1/manifest/events' answer: one answer per event sent, in order, and the manifest versions they moved. */
export const eventsAnswerSchema = z.object({ events: z.array(eventAnswerSchema), manifestVersions: z.array(manifestVersionChangeSchema) });
export type EventsAnswer = z.infer<typeof eventsAnswerSchema>;
