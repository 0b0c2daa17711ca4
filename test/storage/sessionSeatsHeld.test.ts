import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../db/migrations';
import { BOOKING_STATUSES, LIVE_STATUSES } from '../../main/contract/enums';
import { migrationFixture } from '../fixtures/migrations';

const MIGRATION = '20261130_03_session_seats_held';
const fixture = migrationFixture('seats-held');

/** A database one migration short of session_seats_held, with a product and three sessions. */
async function databaseBefore(): Promise<BetterSqlite3.Database> {
  const sqlite = new BetterSqlite3(await fixture.databaseBefore(MIGRATION));
  sqlite.pragma('foreign_keys = ON');
  sqlite.prepare("INSERT INTO products (product_code, name, product_type, currency, booking_mode, confirm_mode, created_at, updated_at) VALUES ('P1', 'Walk', 'ACTIVITY', 'AUD', 'INVENTORY', 'AUTO', 0, 0)").run();
  for (const id of [1, 2, 3]) sqlite.prepare("INSERT INTO sessions (id, product_code, start_at, end_at, seats, created_at, updated_at) VALUES (?, 'P1', ?, ?, 100, 0, 0)").run(id, id * 10, id * 10 + 1);
  return sqlite;
}

async function migrate(sqlite: BetterSqlite3.Database): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrations.find((m) => m.name === MIGRATION)!.up(db);
}

/** What the table must hold: the sum over the rows, as seats.ts summed it before (sessions with nothing held read as 0). */
function derived(sqlite: BetterSqlite3.Database): Record<number, number> {
  const live = LIVE_STATUSES.map((s) => `'${s}'`).join(', ');
  const rows = sqlite
    .prepare(`SELECT i.session_id AS id, sum(i.seats_held) AS held FROM booking_items i JOIN bookings b ON b.order_number = i.order_number WHERE i.session_id IS NOT NULL AND b.status IN (${live}) GROUP BY i.session_id`)
    .all() as { id: number; held: number }[];
  return Object.fromEntries(rows.filter((r) => r.held !== 0).map((r) => [r.id, r.held]));
}

function kept(sqlite: BetterSqlite3.Database): Record<number, number> {
  const rows = sqlite.prepare('SELECT session_id AS id, held FROM session_seats_held WHERE held <> 0').all() as { id: number; held: number }[];
  return Object.fromEntries(rows.map((r) => [r.id, r.held]));
}

function writer(sqlite: BetterSqlite3.Database) {
  const s = {
    booking: sqlite.prepare("INSERT INTO bookings (order_number, id, status, currency, total_amount_minor, created_at, updated_at) VALUES (?, ?, ?, 'AUD', 0, 0, 0)"),
    item: sqlite.prepare('INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, amount_minor, subtotal_minor, total_quantity, seats_held) VALUES (?, ?, 0, ?, ?, 0, 1, 0, 0, ?, ?)'),
    // Sync applies a row as an upsert of its whole image (db/queries/sync/rows.ts upsertRow).
    upsertItem: sqlite.prepare(
      `INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, amount_minor, subtotal_minor, total_quantity, seats_held) VALUES (?, ?, 0, 'P1', ?, 0, 1, 0, 0, ?, ?)
       ON CONFLICT (id) DO UPDATE SET order_number = excluded.order_number, session_id = excluded.session_id, seats_held = excluded.seats_held`,
    ),
    upsertBooking: sqlite.prepare(
      `INSERT INTO bookings (order_number, id, status, currency, total_amount_minor, created_at, updated_at) VALUES (?, ?, ?, 'AUD', 0, 0, 0)
       ON CONFLICT (order_number) DO UPDATE SET status = excluded.status`,
    ),
  };
  return s;
}

describe('session_seats_held (seats held per session, kept by triggers)', () => {
  it('starts as the sum over the rows already there when the migration runs', async () => {
    const sqlite = await databaseBefore();
    const w = writer(sqlite);
    w.booking.run('B1', 1, 'CONFIRMED');
    w.booking.run('B2', 2, 'CANCELLED');
    w.booking.run('B3', 3, 'PENDING_SUPPLIER');
    w.item.run(11, 'B1', 'P1', 1, 3, 3);
    w.item.run(12, 'B1', 'P1', 2, 2, 2);
    w.item.run(21, 'B2', 'P1', 1, 5, 5);
    w.item.run(31, 'B3', 'P1', 1, 4, 4);
    w.item.run(32, 'B3', 'P1', null, 4, 4);
    await migrate(sqlite);
    expect(kept(sqlite)).toEqual({ 1: 7, 2: 2 });
    expect(kept(sqlite)).toEqual(derived(sqlite));
    sqlite.close();
  });

  const step = fc.oneof(
    fc.record({ kind: fc.constant('booking' as const), status: fc.constantFrom(...BOOKING_STATUSES) }),
    fc.record({ kind: fc.constant('item' as const), pick: fc.nat(), session: fc.constantFrom(1, 2, 3, null), seats: fc.nat(6) }),
    fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: fc.constantFrom(...BOOKING_STATUSES) }),
    fc.record({ kind: fc.constant('moveItem' as const), pick: fc.nat(), session: fc.constantFrom(1, 2, 3, null), seats: fc.nat(6), toOtherBooking: fc.boolean() }),
    fc.record({ kind: fc.constant('deleteItem' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('deleteBooking' as const), pick: fc.nat(), childrenFirst: fc.boolean() }),
    // A sync page whose rows arrive children first (deferred foreign keys), as upserts.
    fc.record({ kind: fc.constant('syncPage' as const), status: fc.constantFrom(...BOOKING_STATUSES), session: fc.constantFrom(1, 2, 3), seats: fc.nat(6) }),
    // A write that fails half-way: its savepoint rolls back, the figure with it.
    fc.record({ kind: fc.constant('rolledBack' as const), pick: fc.nat(), status: fc.constantFrom(...BOOKING_STATUSES) }),
  );

  it('equals the sum over the rows after every kind of write to bookings and their items', async () => {
    const sqlite = await databaseBefore();
    await migrate(sqlite);
    const w = writer(sqlite);
    let id = 100;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const orders = () => (sqlite.prepare('SELECT order_number FROM bookings ORDER BY order_number').all() as { order_number: string }[]).map((r) => r.order_number);
        const items = () => (sqlite.prepare('SELECT id, order_number FROM booking_items ORDER BY id').all() as { id: number; order_number: string }[]);
        for (const s of steps) {
          const os = orders();
          const is = items();
          switch (s.kind) {
            case 'booking':
              w.booking.run(`B${++id}`, id, s.status);
              break;
            case 'item':
              if (os.length) w.item.run(++id, os[s.pick % os.length], 'P1', s.session, s.seats, s.seats);
              break;
            case 'status':
              if (os.length) sqlite.prepare('UPDATE bookings SET status = ? WHERE order_number = ?').run(s.status, os[s.pick % os.length]);
              break;
            case 'moveItem':
              if (is.length) {
                const item = is[s.pick % is.length];
                const order = s.toOtherBooking ? os[(s.pick + 1) % os.length] : item.order_number;
                w.upsertItem.run(item.id, order, s.session, s.seats, s.seats);
              }
              break;
            case 'deleteItem':
              if (is.length) sqlite.prepare('DELETE FROM booking_items WHERE id = ?').run(is[s.pick % is.length].id);
              break;
            case 'deleteBooking':
              if (os.length) {
                const order = os[s.pick % os.length];
                sqlite.transaction(() => {
                  // Children first as sync deletes them, or by the cascade.
                  if (s.childrenFirst) sqlite.prepare('DELETE FROM booking_items WHERE order_number = ?').run(order);
                  sqlite.prepare('DELETE FROM bookings WHERE order_number = ?').run(order);
                })();
              }
              break;
            case 'syncPage':
              sqlite.transaction(() => {
                sqlite.pragma('defer_foreign_keys = ON');
                const order = `B${++id}`;
                w.upsertItem.run(++id, order, s.session, s.seats, s.seats);
                w.upsertItem.run(++id, order, s.session, 1, 1);
                w.upsertBooking.run(order, id, s.status);
              })();
              break;
            case 'rolledBack':
              sqlite.exec('SAVEPOINT w');
              if (os.length) sqlite.prepare('UPDATE bookings SET status = ? WHERE order_number = ?').run(s.status, os[s.pick % os.length]);
              if (is.length) sqlite.prepare('DELETE FROM booking_items WHERE id = ?').run(is[s.pick % is.length].id);
              sqlite.exec('ROLLBACK TO w; RELEASE w');
              break;
          }
          expect(kept(sqlite)).toEqual(derived(sqlite));
        }
      }),
      { numRuns: 60 },
    );
    sqlite.close();
  });
});
