/**
 * The /v1 answers the desk screens read. Shapes the contract defines are imported from it as types
 * (main/contract/), so a renamed field is a compile error here as in the API and the domain.
 */
import type * as ManifestContract from '../../../main/contract/manifest';

export type DaySession = ManifestContract.DayBoardSession;

export interface Totals {
  booked: number;
  checkedIn: number;
  noShow: number;
  remaining: number;
}

export interface Checkin {
  state: 'EXPECTED' | 'CHECKED_IN' | 'NO_SHOW';
  at?: string;
  atLocal?: string;
  by?: string;
  device?: string | null;
  eventId?: string;
}

export interface Participant {
  id: number;
  position: number;
  name: string | null;
  barcode: string | null;
  checkin: Checkin;
}

/** A scan answer's participant: the manifest's, plus its history (the scan included). */
export interface ScannedParticipant extends Omit<Participant, 'checkin'> {
  checkin?: Checkin;
}

export interface ManifestBooking {
  orderNumber: string;
  status: string;
  customer: { name: string | null; phone: string | null } | null;
  quantities: { optionId: number; optionLabel: string; value: number }[];
  extras: { name: string; quantity: number }[];
  pickup: { locationName?: string | null; pickupTime?: string | null } | null;
  payment: { totalAmount: number; totalPaid: number; totalDue: number; totalCurrency: string; paid: boolean };
  notes: { internalNotes: string | null; comments: string | null; resellerComments: string | null };
  attention: boolean;
  attentionReasons: string[];
  participants: Participant[];
  /** The booking's order codes, where the engine lists them (the scanner then knows them offline). */
  orderCodes?: string[];
}

export interface Manifest {
  session: ManifestContract.ManifestSession;
  bookings: ManifestBooking[];
  cancelled: {
    orderNumber: string;
    customer: { name: string | null; phone?: string | null } | null;
    participantCount: number;
    cancelledAtLocal: string;
    /** Engines from this version on list who was booked (for an override naming BOOKING_CANCELLED). */
    participants?: { id: number; position: number; name: string | null; checkin: Checkin }[];
  }[];
  conflicts: { message: string; orderNumber?: string; participantId?: number }[];
  totals: Totals;
  pickupTotals?: (Totals & { locationName: string | null })[];
  resources?: { id: number; name: string }[];
  /** The manifest's fingerprint (GET /v1/manifest/version answers a new one once anything changed). */
  version?: string;
}

export interface ScanAnswer {
  result: string;
  checkedIn: boolean;
  message: string;
  eventId: string;
  code?: string;
  orderNumber?: string;
  overrides?: string[];
  belongsTo?: { sessionId: number; productName: string; startTimeLocal: string } | null;
  booking?: Omit<ManifestBooking, 'participants'>;
  participants?: ScannedParticipant[];
  checkedInParticipantIds?: number[];
}

/** POST /v1/manifest/scan's body (the device's own eventId and clock make a resend safe). */
export interface ScanBody {
  code: string;
  sessionId?: number;
  eventId: string;
  occurredAt: string;
  device?: string;
  override?: boolean;
  participantIds?: number[];
}

export interface SearchMatch {
  session: { id: number; productName: string; startTimeLocal: string };
  matchedOn: string[];
  booking: ManifestBooking;
  participants: Participant[];
}

export interface PriceOption {
  id: number;
  label: string;
  price: number;
  minQuantity?: number;
  maxQuantity?: number;
}

export interface AvailabilitySession {
  id?: number;
  productCode: string;
  startTime: string;
  startTimeLocal: string;
  seatsAvailable: number;
  priceOptions: PriceOption[];
}

export interface PickupLocation {
  locationName: string;
  address?: string | null;
  minutesPrior?: number | null;
}

export interface BookingAnswer {
  orderNumber?: string;
  status?: string;
  totalAmount: number;
  totalPaid?: number;
  totalDue?: number;
  totalCurrency: string;
  barcode?: string | null;
  items: { barcode?: string | null; participants: { id?: number; fields?: { label: string; value: string }[]; barcode?: string | null }[] }[];
}

/** One check-in event as POST /v1/manifest/events takes it. */
export interface CheckinEvent {
  eventId: string;
  kind: 'CHECK_IN' | 'UNDO' | 'NO_SHOW' | 'CLOSE' | 'REOPEN';
  sessionId: number;
  participantId?: number;
  undoesEventId?: string;
  occurredAt: string;
  device?: string;
  /** CHECK_IN: the rules a person deliberately overrode ("Admit anyway"). */
  override?: string[];
}

export interface EventAnswer {
  eventId: string;
  result: 'RECORDED' | 'REJECTED';
  message?: string;
  /** REJECTED CHECK_IN: the scan rule that refused it, and whether an override naming it admits. */
  rule?: string;
  overridable?: boolean;
  /** RECORDED: a disagreement with the booking (a check-in on a cancelled one) the manifest lists. */
  conflict?: string | null;
}

/** POST /v1/manifest/events' answer. */
export interface EventsAnswer {
  events: EventAnswer[];
  manifestVersions?: { sessionId: number; before: string; after: string }[];
}
