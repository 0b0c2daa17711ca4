import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/postgres/connection';
import { originLeaseOf } from '../../db/postgres/sync/origins';
import { earlierOrigins } from '../../db/queries/syncIncarnation';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { freshPostgresDatabase } from '../fixtures/postgres';
import { exchange, nodesClosedAfterEach } from '../sync/nodes';

/**
 * Each PostgreSQL hub process numbers and stamps its ops under an origin of its own
 * (db/postgres/sync/origins.ts), so no row is updated by every write of every process.
 */
const { node } = nodesClosedAfterEach();

describe('the origins of a PostgreSQL hub’s processes', () => {
  it('leases one origin per process: the hub’s own first, a new one (an earlier self of the hub’s) beside it, a freed one taken over', async () => {
    const database = await freshPostgresDatabase('origins');
    const open = () => openPostgres(database.url, { migrate: true });
    const [first, second] = [await open(), await open()];
    try {
      const identity = first.postgres!.syncInstance!.origin;
      const a = await originLeaseOf(first.db, database.url).origin();
      const b = await originLeaseOf(second.db, database.url).origin();
      expect(a).toBe(identity);
      expect(b).not.toBe(identity);
      expect(b).toMatch(/^[0-9a-f]{16}$/);
      // Named as the hub's before it writes anything: desks take its catalogue ops as the hub's.
      expect(await earlierOrigins(first.db, identity)).toEqual([b]);
      // A process that ends lets its origin go; the next one takes it over instead of making another.
      await second.close();
      const third = await open();
      try {
        expect(await originLeaseOf(third.db, database.url).origin()).toBe(b);
        expect(await earlierOrigins(first.db, identity)).toEqual([b]);
      } finally {
        await third.close();
      }
    } finally {
      await first.close();
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
