import { sql, type Compilable, type Kysely } from 'kysely';
import { fixedListQuery, fixedQuery } from './compiled';
import type {
  BookingItemExtrasTable,
  BookingItemQuantitiesTable,
  BookingItemsTable,
  BookingsTable,
  CheckinEventsTable,
  CustomersTable,
  Database,
  ParticipantsTable,
} from '../schema';

/** Runs a query per chunk of ids (SQLite's bound-parameter limit) and concatenates the rows. */
export async function inChunks<T, K>(ids: readonly K[], run: (chunk: K[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await run(ids.slice(i, i + 500))));
  return out;
}

const group = <T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> => {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
};

/** An event row without its stored answer (a scan's answer is large and only read on a resend). */
export type EventRow = Omit<CheckinEventsTable, 'answer_json'>;
const EVENT_COLUMNS = [
  'event_id', 'kind', 'session_id', 'order_number', 'participant_id', 'code', 'undoes_event_id', 'result',
  'override_json', 'note', 'device', 'api_key_id', 'key_name', 'occurred_at', 'recorded_at', 'parent_event_id',
] as const;

/** Everything a session's manifest shows, read in a handful of queries (no per-booking round trips). */
export interface SessionRows {
  items: BookingItemsTable[];
  bookings: Map<string, BookingsTable>;
  customers: Map<number, CustomersTable>;
  resellerNames: Map<number, string>;
  participantsByItem: Map<number, ParticipantsTable[]>;
  quantitiesByItem: Map<number, BookingItemQuantitiesTable[]>;
  extrasByItem: Map<number, BookingItemExtrasTable[]>;
  /** Σ payments − Σ refunds per order, minor units. */
  paidByOrder: Map<string, number>;
  /** Of that, what agent keys recorded (money the agent says it took). */
  agentPaidByOrder: Map<string, number>;
  /** Each order's own codes (an order code checks in the whole booking). */
  orderCodesByOrder: Map<string, string[]>;
  events: EventRow[];
}

type Db = Kysely<Database>;

/** The items a read covers: a whole session's, or one booking's in that session (orderNumber given). */
function scopedItems(db: Db, sessionId: number, orderNumber?: string) {
  let query = db.selectFrom('booking_items').where('session_id', '=', sessionId);
  if (orderNumber !== undefined) query = query.where('order_number', '=', orderNumber);
  return query;
}

/**
 * Everything a manifest or a scan shows of the covered items, as sub-selects on the scope (one or
 * two bound parameters, so a 1,000-participant manifest is a handful of indexed queries). The
 * shapes never change: each is built and compiled once per scope (fixedQuery), which a scan, run
 * inside its write lock, would otherwise pay for on every statement.
 */
function scopeReads<A extends [number] | [number, string]>(compile: <O>(build: (db: Db, ...scope: A) => Compilable<O>) => (db: Db, ...scope: A) => Promise<O[]>) {
  const items = (db: Db, scope: A) => scopedItems(db, scope[0], scope[1]);
  const orderNumbers = (db: Db, scope: A) => items(db, scope).select('order_number');
  const itemIds = (db: Db, scope: A) => items(db, scope).select('id');
  return {
    items: compile((db, ...scope) => items(db, scope).selectAll().orderBy('order_number').orderBy('position')),
    bookings: compile((db, ...scope) => db.selectFrom('bookings').selectAll().where('order_number', 'in', orderNumbers(db, scope))),
    customers: compile((db, ...scope) =>
      db
        .selectFrom('customers')
        .selectAll()
        .where('id', 'in', db.selectFrom('bookings').select('customer_id').where('order_number', 'in', orderNumbers(db, scope))),
    ),
    resellers: compile((db, ...scope) =>
      db
        .selectFrom('resellers')
        .select(['id', 'name'])
        .where('id', 'in', db.selectFrom('bookings').select('reseller_id').where('order_number', 'in', orderNumbers(db, scope))),
    ),
    participants: compile((db, ...scope) => db.selectFrom('participants').selectAll().where('item_id', 'in', itemIds(db, scope)).orderBy('item_id').orderBy('position')),
    quantities: compile((db, ...scope) => db.selectFrom('booking_item_quantities').selectAll().where('item_id', 'in', itemIds(db, scope)).orderBy('position')),
    extras: compile((db, ...scope) => db.selectFrom('booking_item_extras').selectAll().where('item_id', 'in', itemIds(db, scope)).orderBy('position')),
    paid: compile((db, ...scope) =>
      db
        .selectFrom('payments')
        .select([
          'order_number',
          sql<number>`sum(case when is_refund = 1 then -amount_minor else amount_minor end)`.as('net'),
          sql<number>`sum(case when recorded_by_reseller_id is null then 0 when is_refund = 1 then -amount_minor else amount_minor end)`.as('agent_net'),
        ])
        .where('order_number', 'in', orderNumbers(db, scope))
        .groupBy('order_number'),
    ),
    orderCodes: compile((db, ...scope) => db.selectFrom('order_barcodes').select(['order_number', 'code']).where('order_number', 'in', orderNumbers(db, scope)).orderBy('code')),
  };
}

// fixedQuery counts a query's arguments from its function's length: one wrapper per scope.
const sessionReads = scopeReads<[number]>((build) => fixedQuery((db, sessionId: number) => build(db, sessionId)));
const bookingReads = scopeReads<[number, string]>((build) => fixedQuery((db, sessionId: number, orderNumber: string) => build(db, sessionId, orderNumber)));

/** The scope's reads with its arguments bound. */
type BoundReads = { [K in keyof typeof sessionReads]: () => ReturnType<(typeof sessionReads)[K]> };
function bind<A extends [number] | [number, string]>(reads: Record<keyof BoundReads, (db: Db, ...scope: A) => Promise<unknown[]>>, db: Db, ...scope: A): BoundReads {
  return Object.fromEntries(Object.entries(reads).map(([name, read]) => [name, () => read(db, ...scope)])) as BoundReads;
}

export async function loadSessionRows(db: Kysely<Database>, sessionId: number): Promise<SessionRows> {
  return loadScopedRows(bind(sessionReads, db, sessionId), () => loadSessionEvents(db, sessionId));
}

/**
 * One booking's items in one session, with only the events about its participants (a scan's read).
 * `eventsOf`: the participants whose events are read (a scan of one participant's code decides and
 * answers about that participant alone); the others' events are left out. Default: all of them.
 */
export async function loadBookingRows(db: Kysely<Database>, orderNumber: string, sessionId: number, eventsOf?: readonly number[]): Promise<SessionRows> {
  return loadScopedRows(bind(bookingReads, db, sessionId, orderNumber), async (ofBooking) => {
    const participantIds = eventsOf === undefined ? ofBooking : ofBooking.filter((id) => eventsOf.includes(id));
    const direct = await inChunks(participantIds, (chunk) => eventsAbout(db, chunk));
    const named = [...new Set(direct.flatMap((e) => (e.parent_event_id ? [e.event_id, e.parent_event_id] : [e.event_id])))];
    const undos = await inChunks(named, (chunk) => undosNaming(db, chunk));
    const seen = new Set(direct.map((e) => e.event_id));
    return [...direct, ...undos.filter((e) => !seen.has(e.event_id))];
  });
}

// A scan's events read: compiled once per list length (db/queries/compiled.ts), not built per scan.
const eventsAbout = fixedListQuery((db, participantIds: readonly number[]) => db.selectFrom('checkin_events').select(EVENT_COLUMNS).where('participant_id', 'in', participantIds));
const undosNaming = fixedListQuery((db, eventIds: readonly string[]) => db.selectFrom('checkin_events').select(EVENT_COLUMNS).where('undoes_event_id', 'in', eventIds));

async function loadScopedRows(read: BoundReads, loadEvents: (participantIds: number[]) => Promise<EventRow[]>): Promise<SessionRows> {
  const items = await read.items();
  const bookings = await read.bookings();
  const customers = await read.customers();
  const resellers = await read.resellers();
  const participants = await read.participants();
  const quantities = await read.quantities();
  const extras = await read.extras();
  const paid = await read.paid();
  const orderCodes = await read.orderCodes();
  const events = await loadEvents(participants.map((p) => p.id));
  return {
    items,
    bookings: new Map(bookings.map((b) => [b.order_number, b])),
    customers: new Map(customers.map((c) => [c.id, c])),
    resellerNames: new Map(resellers.map((r) => [r.id, r.name])),
    participantsByItem: group(participants, (p) => p.item_id),
    quantitiesByItem: group(quantities, (q) => q.item_id),
    extrasByItem: group(extras, (e) => e.item_id),
    paidByOrder: new Map(paid.map((p) => [p.order_number, Number(p.net)])),
    agentPaidByOrder: new Map(paid.map((p) => [p.order_number, Number(p.agent_net)])),
    orderCodesByOrder: new Map([...group(orderCodes, (c) => c.order_number)].map(([order, rows]) => [order, rows.map((r) => r.code)])),
    events,
  };
}

/**
 * A session's state-changing events (each carries the participant's own session). SCAN rows are
 * left out: they change no state, and the check-ins a scan made name it as their parent.
 */
export async function loadSessionEvents(db: Kysely<Database>, sessionId: number): Promise<EventRow[]> {
  return db.selectFrom('checkin_events').select(EVENT_COLUMNS).where('session_id', '=', sessionId).where('kind', '!=', 'SCAN').execute();
}

export async function netPaid(db: Kysely<Database>, orderNumber: string): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select(sql<number | null>`sum(case when is_refund = 1 then -amount_minor else amount_minor end)`.as('net'))
    .where('order_number', '=', orderNumber)
    .executeTakeFirst();
  return Number(row?.net ?? 0);
}

export async function apiKeyNames(db: Kysely<Database>): Promise<Map<number, string>> {
  const rows = await db.selectFrom('api_keys').select(['id', 'name']).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
