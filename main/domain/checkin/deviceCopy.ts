import { DateTime } from 'luxon';
import type { RevokedCodesTable } from '../../../db/schema';
import { loadBookingRows, loadSessionRows, type SessionRows } from '../../../db/queries/manifest';
import { sessionsStartingBetween } from '../../../db/queries/departures';
import { opLogHighMark, opsBetween, orderSessionPairs, ordersChangedSince, revokedCodesOf } from '../../../db/queries/deviceCopy';
import type { DeviceBooking, DeviceCopy, DeviceCopyQuery, DeviceProduct, DeviceSession } from '../../contract/deviceCopy';
import type { EngineContext } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ManifestsService, ResolvedSession } from './manifests';
import { itemIdsByOrder, seatsOfItems } from './manifestAssembly';
import { bookingView, participantView, toEvent, type ViewContext } from './manifestView';
import { isSessionClosed, missingFieldsOf, requiredParticipantLabels } from './scanRules';
import { deriveCheckinState } from './state';
import { isLive } from '../statuses';
import { toIso, toLocal } from '../time';

/**
 * A scanner device's copy of a window of days (GET /v1/checkin/device-copy): every booking of the
 * window's departures with the facts the scan rules weigh, so the device's offline verdict is the
 * engine's. Refreshed with changes only: the cursor marks a point in the op log (every write is
 * folded into it before commit), and the orders whose rows changed after it are sent again.
 */

/** More changed ops than this since a cursor: the whole window is cheaper to send than to work out. */
const MAX_CHANGED_OPS = 5_000;
/** The ops below a cursor's mark it counts: a different count later means some arrived late (or were compacted), and the device starts over. */
const CHECKED_SPAN = 10_000;
/** A cursor older than this starts over: ops that old may have been compacted away. */
const MAX_CURSOR_AGE_MS = 24 * 3_600_000;

interface Cursor {
  v: 1;
  /** The op log's mark when the answer was read, and how many ops lay in (mark − CHECKED_SPAN, mark]. */
  h: number;
  n: number;
  /** The window it was read for, and when (ms). */
  w: string;
  t: number;
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(text: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    return c.v === 1 && Number.isSafeInteger(c.h) && Number.isSafeInteger(c.n) && typeof c.w === 'string' && Number.isFinite(c.t) ? (c as Cursor) : null;
  } catch {
    return null;
  }
}

export function createDeviceCopy(ctx: EngineContext, deps: { manifests: ManifestsService; companies: CompaniesService }) {
  /** The orders changed since the cursor, or why the device must start over. */
  async function changedSince(since: string, window: string, high: number): Promise<{ orders: string[] } | { restart: string }> {
    const cursor = decodeCursor(since);
    if (!cursor) return { restart: 'since is not a cursor this engine gave' };
    if (cursor.w !== window) return { restart: 'the cursor was given for another window' };
    if (ctx.clock.now().getTime() - cursor.t > MAX_CURSOR_AGE_MS) return { restart: 'the cursor is more than a day old' };
    if (cursor.h > high || (await opsBetween(ctx.db, cursor.h - CHECKED_SPAN, cursor.h)) !== cursor.n) return { restart: "the engine's change log moved under the cursor (a restore, a compaction, or a late commit)" };
    const { orders, overflow } = await ordersChangedSince(ctx.db, cursor.h, high, MAX_CHANGED_OPS);
    return overflow ? { restart: 'too much changed since the cursor' } : { orders };
  }

  /** The window's departures with their products, resolved once. */
  async function windowSessions(query: DeviceCopyQuery, zone: string): Promise<ResolvedSession[]> {
    const start = DateTime.fromISO(query.from, { zone }).startOf('day').toMillis();
    const end = DateTime.fromISO(query.to, { zone }).startOf('day').plus({ days: 1 }).toMillis();
    const rows = await sessionsStartingBetween(ctx.db, start, end);
    return Promise.all(rows.map((s) => deps.manifests.resolveSession(ctx.db, { sessionId: s.id })));
  }

  return {
    async get(query: DeviceCopyQuery): Promise<DeviceCopy> {
      const zone = (await deps.companies.supplier()).timezone;
      const window = `${query.from}/${query.to}`;
      // The mark is read before the rows: a write landing meanwhile is sent now and again next time, never missed.
      const high = await opLogHighMark(ctx.db);
      const counted = await opsBetween(ctx.db, high - CHECKED_SPAN, high);
      const resolved = await windowSessions(query, zone);
      const changes = query.since ? await changedSince(query.since, window, high) : null;
      const changedOrders = changes && 'orders' in changes ? changes.orders : null;
      const keyNames = await deps.manifests.keyNames(ctx.db);
      const bookings = changedOrders === null ? await wholeWindow(resolved, keyNames) : await ordersIn(resolved, changedOrders, keyNames);
      return {
        from: query.from,
        to: query.to,
        full: changedOrders === null,
        restart: changes && 'restart' in changes ? changes.restart : null,
        cursor: encodeCursor({ v: 1, h: high, n: counted, w: window, t: ctx.clock.now().getTime() }),
        sessions: await Promise.all(resolved.map(async (r) => sessionOf(r, await isSessionClosed(ctx.db, r.session.id)))),
        products: productsOf(resolved),
        changedOrders: changedOrders ?? [],
        bookings,
      };
    },
  };

  async function wholeWindow(resolved: readonly ResolvedSession[], keyNames: Map<number, string>): Promise<DeviceBooking[]> {
    const out: DeviceBooking[] = [];
    for (const r of resolved) {
      const rows = await loadSessionRows(ctx.db, r.session.id);
      out.push(...entriesOf(r, rows, await revokedByOrder([...rows.bookings.keys()]), keyNames));
    }
    return out;
  }

  async function ordersIn(resolved: readonly ResolvedSession[], orders: readonly string[], keyNames: Map<number, string>): Promise<DeviceBooking[]> {
    const byId = new Map(resolved.map((r) => [r.session.id, r]));
    const pairs = await orderSessionPairs(ctx.db, orders, [...byId.keys()]);
    const revoked = await revokedByOrder(pairs.map((p) => p.order_number));
    const out: DeviceBooking[] = [];
    for (const { order_number, session_id } of pairs) out.push(...entriesOf(byId.get(session_id)!, await loadBookingRows(ctx.db, order_number, session_id), revoked, keyNames));
    return out;
  }

  async function revokedByOrder(orders: readonly string[]): Promise<Map<string, RevokedCodesTable[]>> {
    const byOrder = new Map<string, RevokedCodesTable[]>();
    for (const row of await revokedCodesOf(ctx.db, orders)) byOrder.set(row.order_number, [...(byOrder.get(row.order_number) ?? []), row]);
    return byOrder;
  }
}

/** Every booking of one session's rows, as the device keeps it. */
function entriesOf(r: ResolvedSession, rows: SessionRows, revoked: ReadonlyMap<string, RevokedCodesTable[]>, keyNames: Map<number, string>): DeviceBooking[] {
  const derived = deriveCheckinState(rows.events.map(toEvent));
  const view: ViewContext = { timezone: r.timezone, keyNames };
  const required = requiredParticipantLabels(r.product);
  const out: DeviceBooking[] = [];
  for (const [orderNumber, itemIds] of itemIdsByOrder(rows)) {
    const booking = rows.bookings.get(orderNumber)!;
    const live = isLive(booking.status);
    const participants = itemIds.flatMap((id) => rows.participantsByItem.get(id) ?? []);
    out.push({
      sessionId: r.session.id,
      context: bookingView(orderNumber, rows, itemIds),
      seats: seatsOfItems(rows, itemIds),
      live,
      cancelledAtLocal: live ? null : toLocal(booking.cancelled_at ?? booking.updated_at, r.timezone),
      orderCodes: rows.orderCodesByOrder.get(orderNumber) ?? [],
      revokedCodes: (revoked.get(orderNumber) ?? []).map((c) => ({ code: c.code, participantId: c.participant_id, revokedAtLocal: toLocal(c.revoked_at, r.timezone) })),
      participants: participants.map((p) => {
        const { id, position, name, barcode, checkin } = participantView(p, derived, view);
        return { id, position, name, barcode, checkin, missing: missingFieldsOf(p, required) };
      }),
    });
  }
  return out;
}

function sessionOf({ session, product, timezone }: ResolvedSession, checkinClosed: boolean): DeviceSession {
  return { id: session.id, productCode: session.product_code, productName: product.name, seats: session.seats, startTime: toIso(session.start_at), startTimeLocal: toLocal(session.start_at, timezone), checkinClosed };
}

function productsOf(resolved: readonly ResolvedSession[]): DeviceProduct[] {
  const byCode = new Map<string, DeviceProduct>();
  for (const { product } of resolved) {
    byCode.set(product.product_code, {
      productCode: product.product_code,
      checkinOpensMinutesBefore: product.checkin_opens_minutes_before ?? null,
      checkinRequiresPayment: Boolean(product.checkin_requires_payment),
      enforceRequiredFields: product.enforce_required_fields === 1,
    });
  }
  return [...byCode.values()];
}

export type DeviceCopyService = ReturnType<typeof createDeviceCopy>;
