import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database, ProductsTable, SessionsTable } from '../../../db/schema';
import { apiKeyNames, loadSessionEvents, loadSessionRows } from '../../../db/queries/manifest';
import { seatsHeldBySession } from '../../../db/queries/seats';
import { findSessionById, resourcesOfSession, sessionsStartingBetween, supplierTimezone } from '../../../db/queries/departures';
import { liveParticipantIdsOf } from '../../../db/queries/checkinBookings';
import type { EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ProductsService } from '../catalogue/products';
import { countStates, deriveCheckinState, stateOf } from './state';
import { DomainError } from '../errors';
import { bookingView, historyView, participantView, pickupView, toEvent, type ViewContext } from './manifestView';
import { findSession } from '../availability/sessionRef';
import { isLive } from '../statuses';
import { localDate, parseTimeParam, toIso, toLocal } from '../time';

/** How the manifest operations name a session: its id, or productCode + startTime/startTimeLocal. */
export interface ManifestSessionRef {
  sessionId?: number;
  productCode?: string;
  startTime?: string;
  startTimeLocal?: string;
}

export interface ResolvedSession {
  session: SessionsTable;
  product: ProductsTable;
  timezone: string;
}

export interface ManifestDeps {
  products: ProductsService;
  companies: CompaniesService;
}

export function createManifests(ctx: EngineContext, deps: ManifestDeps) {
  /** The product's timezone, read through the given db (a transaction must not wait on the engine's connection). */
  async function timezoneOf(db: Kysely<Database>, productCode: string): Promise<string> {
    const product = await deps.products.rowOrThrow(db, productCode);
    if (product.timezone) return product.timezone;
    const timezone = await supplierTimezone(db);
    if (timezone === undefined) throw new DomainError('NOT_FOUND', 'No supplier company is configured yet');
    return timezone;
  }

  /** Any time form parseTimeParam accepts, then findSession on the exact instant. */
  async function resolveSession(db: Kysely<Database>, ref: ManifestSessionRef): Promise<ResolvedSession> {
    let session: SessionsTable | undefined;
    if (ref.sessionId !== undefined) {
      session = await findSessionById(db, ref.sessionId);
      if (!session) throw new DomainError('NOT_FOUND', `Session ${ref.sessionId} was not found`);
    } else {
      if (!ref.productCode) throw new DomainError('VALIDATION_ERROR', 'Name the session with sessionId, or productCode and startTime or startTimeLocal');
      const timezone = await timezoneOf(db, ref.productCode);
      const raw = ref.startTime ?? ref.startTimeLocal;
      if (!raw) throw new DomainError('VALIDATION_ERROR', 'Name the session with startTime or startTimeLocal');
      const at = parseTimeParam(raw, timezone, 'lower', ref.startTime ? 'startTime' : 'startTimeLocal');
      session = await findSession(db, { productCode: ref.productCode, startTime: toIso(at) }, timezone).catch((error) => {
        if (error instanceof DomainError && error.code === 'NOT_FOUND') {
          throw new DomainError('NOT_FOUND', `Product ${ref.productCode} has no session starting at ${raw}`);
        }
        throw error;
      });
    }
    const product = await deps.products.rowOrThrow(db, session.product_code);
    return { session, product, timezone: await timezoneOf(db, session.product_code) };
  }

  function sessionView(resolved: ResolvedSession, seatsHeld: number, closed: boolean) {
    const { session, product, timezone } = resolved;
    return {
      id: session.id,
      productCode: session.product_code,
      productName: product.name,
      startTime: toIso(session.start_at),
      endTime: toIso(session.end_at),
      startTimeLocal: toLocal(session.start_at, timezone),
      endTimeLocal: toLocal(session.end_at, timezone),
      seats: session.seats,
      seatsAvailable: Math.max(0, session.seats - seatsHeld),
      checkinClosed: closed,
    };
  }

  async function build(ref: ManifestSessionRef) {
    const resolved = await resolveSession(ctx.db, ref);
    const { session, timezone } = resolved;
    const rows = await loadSessionRows(ctx.db, session.id);
    const derived = deriveCheckinState(rows.events.map(toEvent));
    const view: ViewContext = { timezone, keyNames: await apiKeyNames(ctx.db) };
    const held = (await seatsHeldBySession(ctx.db, [session.id])).get(session.id) ?? 0;

    // Each participant's own events (check-ins, undos, no-shows, with any override), oldest first.
    const eventsByParticipant = new Map<number, typeof rows.events>();
    for (const event of rows.events) {
      if (event.participant_id === null) continue;
      const list = eventsByParticipant.get(event.participant_id);
      if (list) list.push(event);
      else eventsByParticipant.set(event.participant_id, [event]);
    }
    const itemById = new Map(rows.items.map((i) => [i.id, i]));
    const itemsByOrder = new Map<string, number[]>();
    for (const item of rows.items) itemsByOrder.set(item.order_number, [...(itemsByOrder.get(item.order_number) ?? []), item.id]);

    const bookings = [];
    const cancelled = [];
    const conflicts = [];
    const liveParticipantIds: number[] = [];
    const pickupTotals = new Map<string | null, number[]>();
    for (const [orderNumber, itemIds] of itemsByOrder) {
      const booking = rows.bookings.get(orderNumber)!;
      const participants = itemIds.flatMap((id) => rows.participantsByItem.get(id) ?? []);
      if (isLive(booking.status)) {
        const context = bookingView(orderNumber, rows, itemIds);
        bookings.push({ ...context, participants: participants.map((p) => ({ ...participantView(p, derived, view), history: historyView(eventsByParticipant.get(p.id) ?? [], view) })) });
        liveParticipantIds.push(...participants.map((p) => p.id));
        // Each participant counts at their own item's pickup (two items of one order may start from different points).
        for (const itemId of itemIds) {
          const pickupName = pickupView(itemById.get(itemId)!.pickup_json)?.locationName ?? null;
          const ids = (rows.participantsByItem.get(itemId) ?? []).map((p) => p.id);
          const list = pickupTotals.get(pickupName);
          if (list) list.push(...ids);
          else pickupTotals.set(pickupName, ids);
        }
        continue;
      }
      // ABANDONED_CART never became a booking a guide expects; only CANCELLED is listed apart.
      if (booking.status !== 'CANCELLED') continue;
      const cancelledAt = booking.cancelled_at ?? booking.updated_at;
      cancelled.push({
        orderNumber,
        status: booking.status,
        customer: bookingView(orderNumber, rows, itemIds).customer,
        participantCount: participants.length,
        cancelledAt: toIso(cancelledAt),
        cancelledAtLocal: toLocal(cancelledAt, timezone),
      });
      for (const p of participants) {
        const state = stateOf(derived, p.id);
        if (state.status !== 'CHECKED_IN' || !state.event) continue;
        const checkedAt = toLocal(state.event.occurredAt, timezone).slice(11, 16);
        conflicts.push({
          kind: 'CHECKED_IN_BUT_CANCELLED',
          orderNumber,
          participantId: p.id,
          eventId: state.event.eventId,
          message: `Checked in at ${checkedAt}, but the booking was cancelled at ${toLocal(cancelledAt, timezone).slice(0, 16)}`,
        });
      }
    }
    bookings.sort((a, b) => a.orderNumber.localeCompare(b.orderNumber));
    const resources = await resourcesOfSession(ctx.db, session.id);
    return {
      resolved,
      derived,
      liveParticipantIds,
      manifest: {
        session: sessionView(resolved, held, derived.closed),
        bookings,
        cancelled,
        conflicts,
        totals: countStates(derived, liveParticipantIds),
        pickupTotals: [...pickupTotals].map(([locationName, ids]) => ({ locationName, ...countStates(derived, ids) })),
        resources: resources.map((r) => ({ id: r.id, name: r.name, resourceType: r.resource_type, seats: r.seats, resourceOrder: r.resource_order })),
      },
    };
  }

  return {
    resolveSession,
    timezoneOf,

    async get(ref: ManifestSessionRef) {
      return (await build(ref)).manifest;
    },

    /** A session counts as checked in when it has at least one live participant and all of them are checked in. */
    async isSessionCheckedIn(ref: ManifestSessionRef): Promise<boolean> {
      const { totals } = (await build(ref)).manifest;
      return totals.booked > 0 && totals.checkedIn === totals.booked;
    },

    /** The day's sessions of every product with their counts, ordered by start. */
    async day(date: string | undefined, paging: { limit: number; offset: number }) {
      const company = await deps.companies.supplier();
      const zone = company.timezone;
      const day = date ?? localDate(ctx.clock.now().getTime(), zone);
      const from = parseTimeParam(day, zone, 'lower', 'date');
      const to = DateTime.fromMillis(from, { zone }).startOf('day').plus({ days: 1 }).toMillis();
      const start = DateTime.fromMillis(from, { zone }).startOf('day').toMillis();
      const sessions = await sessionsStartingBetween(ctx.db, start, to, paging);
      const held = await seatsHeldBySession(ctx.db, sessions.map((s) => s.id));
      const out = [];
      for (const session of sessions) {
        const product = await deps.products.rowOrThrow(ctx.db, session.product_code);
        const timezone = await timezoneOf(ctx.db, session.product_code);
        const participantIds = await liveParticipantIdsOf(ctx.db, session.id);
        const events = await loadSessionEvents(ctx.db, session.id);
        const derived = deriveCheckinState(events.map(toEvent));
        out.push({ ...sessionView({ session, product, timezone }, held.get(session.id) ?? 0, derived.closed), ...countStates(derived, participantIds) });
      }
      return out;
    },
  };
}

export type ManifestsService = ReturnType<typeof createManifests>;
export type Manifest = Awaited<ReturnType<ManifestsService['get']>>;
