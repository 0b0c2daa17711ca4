import { DateTime } from 'luxon';
import type { ProductsTable, SessionsTable } from '../../../db/schema';
import type { SessionCreateBody, SessionUpdateBody } from '../../contract/availability';
import { liveBookingCount, seatsHeldBySession } from '../../../db/queries/seats';
import {
  deleteSession,
  findSessionById,
  findSessionIdStartingAt,
  findSessionsByIds,
  findSessionsStartingBetween,
  insertSession as insertSessionRow,
  unlinkBookingItemsFromSession,
  updateSession,
} from '../../../db/queries/sessions';
import { replaceSessionOverrides } from '../../../db/queries/sessionPriceOptions';
import { findPriceOptionsOfProduct } from '../../../db/queries/products';
import type { Actor, EngineContext, Tx } from '../context';
import type { CompaniesService } from '../platform/companies';
import type { ProductsService } from '../catalogue/products';
import { DomainError } from '../errors';
import { fromIso, fromLocal, toLocal } from '../time';
import { resolveOverrides } from './priceOptions';
import { createAvailabilitySearch } from './search';
import { sessionsToApi, type Session } from './sessionAnswers';

/** Identifies a stored session: its id, or productCode + startTimeLocal (the non-deprecated form). */
export type SessionKey = { sessionId: number } | { productCode: string; startTimeLocal: string };

/** The longest daylight-saving shift in use (2 hours, Antarctica/Troll): how far a repeated wall-clock time can recur. */
const REPEATED_HOUR_MS = 2 * 3_600_000;

/** One instant from an ISO and/or a local form; when both are sent they must agree. */
function instantOf(iso: string | undefined, local: string | undefined, zone: string, isoField: string, localField: string): number | undefined {
  const fromIsoValue = iso !== undefined ? fromIso(iso, isoField) : undefined;
  const fromLocalValue = local !== undefined ? fromLocal(local, zone, localField) : undefined;
  if (fromIsoValue !== undefined && fromLocalValue !== undefined && fromIsoValue !== fromLocalValue) {
    throw new DomainError('VALIDATION_ERROR', `${isoField} ${iso} and ${localField} ${local} name different times (in ${zone})`);
  }
  return fromIsoValue ?? fromLocalValue;
}

/** An update should say one thing; when it sends several, the answer says which one counted. */
function mixedFieldsWarnings(input: SessionUpdateBody): string[] {
  const sent = (['seats', 'seatsAvailable', 'priceOptions'] as const).filter((f) => input[f] !== undefined);
  if (sent.length <= 1) return [];
  const ignored = input.seatsAvailable !== undefined && input.seats !== undefined ? '; seats was ignored because seatsAvailable wins' : '';
  return [`Send only one of seats, seatsAvailable or priceOptions (got ${sent.join(', ')})${ignored}`];
}

/** Total seats after an update: seatsAvailable (wins) moves capacity by the difference, seats sets it; never below 0. */
function capacityAfterUpdate(currentSeats: number, held: number, input: SessionUpdateBody): number {
  if (input.seatsAvailable !== undefined) {
    const seats = held + input.seatsAvailable;
    if (seats < 0) {
      throw new DomainError('VALIDATION_ERROR', `seatsAvailable ${input.seatsAvailable} would leave ${seats} total seats (${held} are held by bookings); total seats cannot be below 0`);
    }
    return seats;
  }
  if (input.seats !== undefined) {
    if (input.seats < 0) throw new DomainError('VALIDATION_ERROR', `seats ${input.seats}: total seats cannot be below 0`);
    return input.seats;
  }
  return currentSeats;
}

export function createAvailability(ctx: EngineContext, deps: { companies: CompaniesService; products: ProductsService }) {
  const { companies, products } = deps;
  const companyZone = async () => (await companies.supplier()).timezone;

  async function productFor(tx: Tx, code: string, cache: Map<string, ProductsTable>): Promise<ProductsTable> {
    let product = cache.get(code);
    if (!product) {
      product = await products.rowOrThrow(tx.db, code);
      cache.set(code, product);
    }
    if (product.booking_mode !== 'INVENTORY') {
      throw new DomainError('VALIDATION_ERROR', `Product ${code} has bookingMode ${product.booking_mode}: it is booked for any date and takes no sessions`);
    }
    return product;
  }

  /** Inserts one session; `prefix` names the batch entry in error messages. */
  async function insertSession(tx: Tx, input: SessionCreateBody, defaultZone: string, cache: Map<string, ProductsTable>, prefix = ''): Promise<number> {
    try {
      const product = await productFor(tx, input.productCode, cache);
      const zone = product.timezone ?? defaultZone;
      const start = instantOf(input.startTime, input.startTimeLocal, zone, 'startTime', 'startTimeLocal');
      if (start === undefined) throw new DomainError('VALIDATION_ERROR', 'startTime or startTimeLocal is required');
      const allDay = input.allDay ?? false;
      let end = instantOf(input.endTime, input.endTimeLocal, zone, 'endTime', 'endTimeLocal');
      if (end === undefined && allDay) end = DateTime.fromMillis(start, { zone }).startOf('day').plus({ days: 1 }).toMillis();
      if (end === undefined && product.duration_minutes) end = start + product.duration_minutes * 60_000;
      if (end === undefined) throw new DomainError('VALIDATION_ERROR', `endTime or endTimeLocal is required: product ${product.product_code} has no durationMinutes`);
      if (end <= start) throw new DomainError('VALIDATION_ERROR', `endTime must be after startTime (${toLocal(start, zone)} → ${toLocal(end, zone)})`);
      const seats = input.seats ?? input.seatsAvailable;
      if (seats === undefined) throw new DomainError('VALIDATION_ERROR', 'seats is required');
      const clash = await findSessionIdStartingAt(tx.db, product.product_code, start);
      if (clash) throw new DomainError('DUPLICATE', `Product ${product.product_code} already has a session starting at ${toLocal(start, zone)} (session ${clash.id})`);
      const options = await findPriceOptionsOfProduct(tx.db, product.product_code);
      const overrides = resolveOverrides(product.product_code, product.currency, options, input.priceOptions ?? []);
      const id = ctx.ids.nextId();
      await insertSessionRow(tx.db, { id, product_code: product.product_code, start_at: start, end_at: end, all_day: allDay ? 1 : 0, seats, created_at: tx.now, updated_at: tx.now });
      await replaceSessionOverrides(tx.db, id, overrides);
      await tx.journal('session', id, 'create', { productCode: product.product_code, startAt: start, endAt: end, allDay, seats, priceOptions: overrides });
      return id;
    } catch (error) {
      if (prefix && error instanceof DomainError) throw new DomainError(error.code, `${prefix}${error.message}`, error.status);
      throw error;
    }
  }

  async function sessionRow(tx: Tx, key: SessionKey, defaultZone: string): Promise<SessionsTable> {
    if ('sessionId' in key) {
      const row = await findSessionById(tx.db, key.sessionId);
      if (!row) throw new DomainError('NOT_FOUND', `Session ${key.sessionId} was not found`);
      return row;
    }
    const product = await products.rowOrThrow(tx.db, key.productCode);
    const zone = product.timezone ?? defaultZone;
    const local = key.startTimeLocal.replace(/^(\d{4}-\d{2}-\d{2})[+T]/, '$1 ');
    const first = fromLocal(local, zone, 'startTimeLocal');
    // When clocks go back a wall-clock time happens twice: either occurrence names its session (the first wins).
    const wanted = toLocal(first, zone);
    const candidates = await findSessionsStartingBetween(tx.db, key.productCode, first, first + REPEATED_HOUR_MS);
    const row = candidates.find((c) => toLocal(c.start_at, zone) === wanted);
    if (!row) throw new DomainError('NOT_FOUND', `Product ${key.productCode} has no session starting at ${local}`);
    return row;
  }

  /** A session this transaction has just written, read back as stored. */
  async function storedSession(tx: Tx, id: number): Promise<SessionsTable> {
    const row = await findSessionById(tx.db, id);
    if (!row) throw new Error(`Session ${id} vanished inside its own transaction`);
    return row;
  }

  const search = createAvailabilitySearch(ctx, companyZone);

  const service = {
    search,

    async toApi(rows: SessionsTable[]): Promise<Session[]> {
      return sessionsToApi(ctx.db, rows, await companyZone());
    },

    async get(sessionId: number): Promise<Session> {
      const row = await findSessionById(ctx.db, sessionId);
      if (!row) throw new DomainError('NOT_FOUND', `Session ${sessionId} was not found`);
      return (await service.toApi([row]))[0];
    },

    async create(input: SessionCreateBody, actor: Actor): Promise<Session> {
      const zone = await companyZone();
      return ctx.write(actor, async (tx) => {
        const id = await insertSession(tx, input, zone, new Map());
        return (await sessionsToApi(tx.db, [await storedSession(tx, id)], zone))[0];
      });
    },

    /** All or nothing: the first bad entry rolls back the whole batch and is named by its index. */
    async createBatch(inputs: SessionCreateBody[], actor: Actor): Promise<Session[]> {
      const zone = await companyZone();
      return ctx.write(actor, async (tx) => {
        const cache = new Map<string, ProductsTable>();
        const ids: number[] = [];
        for (const [index, input] of inputs.entries()) ids.push(await insertSession(tx, input, zone, cache, `sessions[${index}]: `));
        const rows = await findSessionsByIds(tx.db, ids);
        const byId = new Map(rows.map((r) => [r.id, r]));
        return sessionsToApi(tx.db, ids.map((id) => byId.get(id)!), zone);
      });
    },

    /**
     * SessionUpdateRequest: seatsAvailable (wins over seats) moves capacity by the difference;
     * seats sets capacity whatever is booked; total seats never go below 0. Returns warnings too.
     */
    async update(key: SessionKey, input: SessionUpdateBody, actor: Actor): Promise<{ session: Session; warnings: string[] }> {
      const zone = await companyZone();
      return ctx.write(actor, async (tx) => {
        const row = await sessionRow(tx, key, zone);
        const product = await products.rowOrThrow(tx.db, row.product_code);
        const held = (await seatsHeldBySession(tx.db, [row.id])).get(row.id) ?? 0;
        const warnings = mixedFieldsWarnings(input);
        const seats = capacityAfterUpdate(row.seats, held, input);
        if (seats < held) warnings.push(`Session ${row.id} is overbooked: bookings hold ${held} seats and the session now has ${seats}`);
        const changes: Record<string, unknown> = {};
        if (seats !== row.seats) changes.seats = seats;
        if (input.allDay !== undefined) changes.allDay = input.allDay;
        if (input.priceOptions !== undefined) {
          const options = await findPriceOptionsOfProduct(tx.db, row.product_code);
          const overrides = resolveOverrides(row.product_code, product.currency, options, input.priceOptions);
          await replaceSessionOverrides(tx.db, row.id, overrides);
          changes.priceOptions = overrides;
        }
        await updateSession(tx.db, row.id, { seats, all_day: input.allDay === undefined ? row.all_day : input.allDay ? 1 : 0, updated_at: tx.now });
        await tx.journal('session', row.id, 'update', changes);
        return { session: (await sessionsToApi(tx.db, [await storedSession(tx, row.id)], zone))[0], warnings };
      });
    },

    /** Refused while live bookings hold the session; cancelled bookings keep their times but lose the link. */
    async remove(key: SessionKey, actor: Actor): Promise<void> {
      const zone = await companyZone();
      await ctx.write(actor, async (tx) => {
        const row = await sessionRow(tx, key, zone);
        const live = await liveBookingCount(tx.db, row.id);
        if (live > 0) {
          throw new DomainError('IN_USE', `Session ${row.id} has ${live} live booking(s); move or cancel those bookings first`);
        }
        await unlinkBookingItemsFromSession(tx.db, row.id);
        await deleteSession(tx.db, row.id);
        await tx.journal('session', row.id, 'delete', { productCode: row.product_code, startAt: row.start_at });
      });
    },
  };
  return service;
}

export type AvailabilityService = ReturnType<typeof createAvailability>;
