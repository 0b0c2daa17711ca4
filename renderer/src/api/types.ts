/**
 * The /v1 shapes the desk screens read and send: every one the contract's (main/contract/), so a
 * renamed field is a compile error here as in the API and the domain. Types only (`export type`):
 * the renderer never runs the contract's code.
 */
import type { ManifestBooking, ScanBody } from '../../../main/contract/manifest';

export type {
  BookingContext,
  CheckinEventBody,
  Counts,
  DayBoardSession,
  EventAnswer,
  EventOverridableRule,
  EventsAnswer,
  Manifest,
  ManifestBooking,
  OverridableRule,
  ParticipantCheckin,
  RejectedEvent,
  ScanAnswer,
  ScanBody,
  ScanParticipant,
} from '../../../main/contract/manifest';
export type { Booking, BookingQuote } from '../../../main/contract/bookings';
export type { DeviceBooking, DeviceCopy, DeviceParticipant, DeviceProduct, DeviceSession } from '../../../main/contract/deviceCopy';
export type { TakePaymentBody } from '../../../main/contract/payments';
export type { PriceOptionAnswer } from '../../../main/contract/products';
export type { SessionAnswer } from '../../../main/contract/availability';
export type { PickupLocationAnswer } from '../../../main/contract/pickups';

/** A participant as the manifest lists them (with their check-in and its history). */
export type ManifestParticipant = ManifestBooking['participants'][number];

/** A scan the device queued: its own eventId and clock always go with it, so a resend is recorded once. */
export type QueuedScanBody = ScanBody & Required<Pick<ScanBody, 'eventId' | 'occurredAt'>>;
