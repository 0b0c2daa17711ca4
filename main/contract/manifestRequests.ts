import { z } from 'zod';
import { DateTime } from 'luxon';
import { EVENT_KINDS } from './enums';
import { bool, idParam, isIsoInstant, opt, text } from './common';
import { paging, qBool, qId, qString, qTime } from './query';

/** What the /v1/manifest operations take: their queries and the scan and event bodies (the answers are in manifest.ts). */


/** A session named the spec's way (productCode + startTime or startTimeLocal), or by TourDesk's sessionId. */
export const sessionRefQuery = z.object({
  sessionId: qId.optional(),
  productCode: qString.optional(),
  startTime: qTime.optional(),
  startTimeLocal: qTime.optional(),
});

/** The spec's manifest operations take productCode + startTime or startTimeLocal. */
export const specSessionQuery = z.object({
  productCode: qString,
  startTime: qTime.optional(),
  startTimeLocal: qTime.optional(),
});
export const checkinSessionPutQuery = specSessionQuery.extend({ checkin: qBool.optional() });
export const orderSessionQuery = specSessionQuery.extend({ orderNumber: qString });

export const dayQuery = z.object({ date: qTime.optional(), ...paging });

/** TourDesk extension: find bookings when a code will not scan; without a session, today's sessions. */
export const manifestSearchQuery = sessionRefQuery.extend({ q: qString, ...paging });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const eventIdSchema = z.string().trim().regex(UUID, 'must be a UUID made by the device');
const isoTime = z.string().refine(isIsoInstant, 'must be an ISO-8601 time with Z or an offset');

export const scanBodySchema = z.object({
  code: z.string().trim().min(1, 'must not be empty').max(500),
  sessionId: opt(idParam),
  eventId: opt(eventIdSchema),
  occurredAt: opt(isoTime),
  device: opt(text(100)),
  override: opt(bool),
  participantIds: opt(z.array(idParam).max(1000)),
  /**
   * The day (YYYY-MM-DD, the session's local date) whose departures the scan is for: a scanner
   * serving all of a day's sends the day it loaded. A booking of another day answers WRONG_SESSION
   * (overridable) instead of checking in; without it, the booking's own session whatever its day.
   */
  day: opt(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD').refine((day) => DateTime.fromISO(day).isValid, 'must be a date that exists, as YYYY-MM-DD')),
});
export type ScanBody = z.infer<typeof scanBodySchema>;

/**
 * The rules a CHECK_IN event may name in `override` (a deliberate "Admit anyway"): the scan's, and a
 * cancelled booking, which only an override naming it admits (a scan's blanket override never does).
 */
export const EVENT_OVERRIDABLE_RULES = ['WRONG_SESSION', 'CHECKIN_CLOSED', 'NOT_YET_OPEN', 'ALREADY_CHECKED_IN', 'NOT_PAID', 'INCOMPLETE', 'BOOKING_CANCELLED'] as const;
export type EventOverridableRule = (typeof EVENT_OVERRIDABLE_RULES)[number];

export const eventSchema = z.object({
  eventId: eventIdSchema,
  kind: z.enum(EVENT_KINDS),
  participantId: opt(idParam),
  sessionId: idParam,
  undoesEventId: opt(z.string().trim().min(1).max(200)),
  occurredAt: isoTime,
  device: opt(text(100)),
  note: opt(text(1000)),
  /**
   * CHECK_IN only. The rules the person deliberately overrode ("Admit anyway"); the engine records those
   * that applied, with who did it. Without them a CHECK_IN the scan rules refuse is REJECTED, not stored.
   */
  override: opt(z.array(z.enum(EVENT_OVERRIDABLE_RULES)).max(EVENT_OVERRIDABLE_RULES.length)),
  /**
   * CHECK_IN only. The device decided this check-in itself, from its own copy of the manifest while
   * offline: it happened, so it is stored whatever the booking says now, and a disagreement (cancelled
   * meanwhile) is raised as a conflict for the office instead of refused.
   */
  decidedOffline: opt(bool),
});
export const eventsBodySchema = z.object({ events: z.array(eventSchema).min(1, 'send at least one event').max(1000) });
/** One check-in event as the API takes it (and the domain records it). */
export type CheckinEventBody = z.infer<typeof eventSchema>;
