import { z } from 'zod';
import { EVENT_KINDS } from './enums';
import { isIsoInstant } from './common';
import { bool, idParam, opt, text } from './common';
import { paging, qBool, qId, qString, qTime } from './query';

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
});
export type ScanBody = z.infer<typeof scanBodySchema>;

export const eventSchema = z.object({
  eventId: eventIdSchema,
  kind: z.enum(EVENT_KINDS),
  participantId: opt(idParam),
  sessionId: idParam,
  undoesEventId: opt(z.string().trim().min(1).max(200)),
  occurredAt: isoTime,
  device: opt(text(100)),
  note: opt(text(1000)),
});
export const eventsBodySchema = z.object({ events: z.array(eventSchema).min(1, 'send at least one event').max(1000) });
