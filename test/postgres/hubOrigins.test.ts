import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/postgres/connection';
import { earlierOrigins } from '../../db/queries/syncIncarnation';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { freshPostgresDatabase } from '../fixtures/postgres';
import { exchange, nodesClosedAfterEach } from '../sync/nodes';

/**
 * Each connection a PostgreSQL hub process writes on numbers and stamps its ops under an origin of its
 * own (tourdesk_write_origin(), migration 20261207_21), so no row is updated by every write.
 */
const { node } = nodesClosedAfterEach();

describe('the origins of a PostgreSQL hub’s processes', () => {
  it('leases one origin per writing connection: the hub’s own first, a new one (an earlier self of the hub’s) beside it, a freed one taken over, a rolled-back lease kept', async () => {
    const database = await freshPostgresDatabase('origins');
    const hub = await openPostgres(database.url, { migrate: true });
    const clients: pg.Client[] = [];
    const connect = async () => {
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      clients.push(c);
      return c;
    };
    // The origin a write on `c` numbers under, in a transaction that commits or rolls back.
    const lease = async (c: pg.Client, end: 'commit' | 'rollback' = 'commit') => {
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const { rows } = await c.query<{ origin: string }>('SELECT origin FROM tourdesk_write_origin()');
      await c.query(end);
      return rows[0].origin;
    };
    try {
      const identity = hub.postgres!.syncInstance!.origin;
      const [first, second] = [await connect(), await connect()];
      expect(await lease(first)).toBe(identity);
      const b = await lease(second);
      expect(b).not.toBe(identity);
      expect(b).toMatch(/^[0-9a-f]{16}$/);
      // Kept for the connection's life: its writes number one origin, one transaction after another.
      expect(await lease(first)).toBe(identity);
      expect(await lease(second)).toBe(b);
      // Named as the hub's in the transaction that made it: desks take its catalogue ops as the hub's.
      expect(await earlierOrigins(hub.db, identity)).toEqual([b]);
      // A lease made by a transaction that rolls back goes with it (its row too); the next write leases again.
      const third = await connect();
      const lost = await lease(third, 'rollback');
      expect((await first.query('SELECT count(*)::int AS n FROM hub_origins WHERE origin = $1', [lost])).rows[0].n).toBe(0);
      const c = await lease(third);
      expect([identity, b, lost]).not.toContain(c);
      expect((await earlierOrigins(hub.db, identity)).sort()).toEqual([b, c].sort());
      // A connection that ends lets its origin go; the next one takes it over instead of making another.
      await second.end();
      clients.splice(clients.indexOf(second), 1);
      const fourth = await connect();
      // Taken back by a rollback, the same origin again (the connection holds its lock already).
      expect(await lease(fourth, 'rollback')).toBe(b);
      expect(await lease(fourth)).toBe(b);
      expect((await earlierOrigins(hub.db, identity)).sort()).toEqual([b, c].sort());
    } finally {
      await Promise.all(clients.map((c) => c.end()));
      await hub.close();
      await database.drop();
    }
  });

  it('stamps a row’s later write later, whichever process made it: a desk ends with the hub’s values', async () => {
    // Two hub engines on one database (each call goes to the other one), both on one frozen clock:
    // only the counters and the stamps received from the rows' merge states order their writes.
    const hub = await node('hub', { instanceNo: 1, dialect: 'postgres' });
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    const created = await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 4 }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    const sold = await hub.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 1 }]));
    expect(sold.status).toBe(200);
    const order = sold.body.booking.orderNumber as string;
    await exchange(desk, hub);
    const sessionOf = async (n: typeof hub) => (await n.call('GET', `/v1/availability?productCode=${product.productCode}&startTimeLocal=2030-02-01&endTimeLocal=2030-02-02`)).body.sessions[0];
    const sessionId = (await sessionOf(hub)).id as number;
    // Every call goes to the other engine: each row is written by both, in turn.
    for (let i = 0; i < 7; i++) expect((await hub.call('PUT', `/v1/bookings/${order}`, { resellerReference: `REF-${i}` })).status).toBe(200);
    for (let i = 0; i < 7; i++) expect((await hub.call('PUT', `/v1/availability/${sessionId}`, { seats: 10 + i })).status).toBe(200);
    // The writes came from both engines, under two origins.
    for (const entity of ['sessions', 'bookings']) {
      const origins = hub.sql.prepare("SELECT DISTINCT origin FROM sync_ops WHERE entity = ? AND kind = 'update'").all(entity) as { origin: string }[];
      expect(origins).toHaveLength(2);
    }
    await exchange(desk, hub);
    const atDesk = (await desk.call('GET', `/v1/bookings/${order}`)).body.booking;
    expect(atDesk.resellerReference).toBe('REF-6');
    expect((await sessionOf(desk)).seats).toBe(16);
    expect(await desk.dump()).toBe(await hub.dump());
  });
});
