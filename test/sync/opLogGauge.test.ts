import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import type { Database } from '../../db/schema';
import { opLogSize } from '../../db/queries/syncCompaction';
import { opLogGauge } from '../../main/sync/opLogGauge';
import { listen, nodesClosedAfterEach, syncOk, type SyncNode } from './nodes';

/**
 * GET /v1/sync/status answers the op log's size from a kept measure (main/sync/opLogGauge.ts): the
 * walk of sync_ops' pages is not repeated per call, yet the ops it answers are the ops held after
 * writes and after a compaction, made here or by another process (a second gauge stands for one).
 */
const { node } = nodesClosedAfterEach();

const DAY = 86_400_000;

async function hubSelling() {
  const clock = fixedClock('2030-01-15T00:00:00Z');
  const hub = await node('hub', { instanceNo: 1, clock });
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 500, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
  const sell = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const sale = await hub.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-06-01T09:00:00+10:00', [{ optionLabel: 'Adult', value: 1 }]));
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    }
  };
  return { hub, clock, sell, db: hub.engine.ctx.db as Kysely<Database> };
}

const opsHeld = (hub: SyncNode) => Number((hub.sql.prepare('SELECT count(*) AS n FROM sync_ops').get() as { n: number | string }).n);

describe('the op log’s size in the status', () => {
  it('measures once, then counts the ops written since exactly and estimates their bytes, until it grew by a quarter', async () => {
    const { hub, clock, sell, db } = await hubSelling();
    await sell(12);
    let measures = 0;
    const gauge = opLogGauge(db, () => clock.now().getTime(), (d) => (measures++, opLogSize(d)));
    const first = await gauge.read();
    expect(first).toEqual(await opLogSize(db));
    expect(first.ops).toBe(opsHeld(hub));
    expect(await gauge.read()).toEqual(first);
    expect(measures).toBe(1);

    await sell(1);
    const after = await gauge.read();
    expect(measures).toBe(1); // not walked again
    expect(after.ops).toBe(opsHeld(hub));
    expect(after.ops).toBeGreaterThan(first.ops);
    expect(after.bytes).toBeGreaterThan(first.bytes);
    const truth = await opLogSize(db);
    expect(Math.abs(after.bytes - truth.bytes)).toBeLessThanOrEqual(truth.bytes * 0.25);

    // Grown by more than a quarter: measured again.
    await sell(6);
    expect(await gauge.read()).toEqual(await opLogSize(db));
    expect(measures).toBe(2);
    // And after the measure's time is up, whatever the marks say.
    clock.advance(11 * 60_000);
    await gauge.read();
    expect(measures).toBe(3);
  });

  it('counts right after a compaction, made through this gauge’s service or by another process', async () => {
    const { hub, clock, sell, db } = await hubSelling();
    await sell(4);
    // Another process's gauge (as serve's, while `tourdesk compact` runs beside it): it is never told of the compaction.
    const elsewhere = opLogGauge(db, () => clock.now().getTime());
    const status = async () => (await hub.call('GET', '/v1/sync/status')).body.opLog as { ops: number; bytes: number };
    const before = await status();
    expect(before.ops).toBe(opsHeld(hub));
    expect((await elsewhere.read()).ops).toBe(before.ops);

    // A desk holds every op (the hub hears so from its pulls), and the season passes the horizon.
    const { url } = await listen(hub);
    const desk = await node('desk', { instanceNo: 2, clock, dialect: 'sqlite' });
    await desk.engine.sync.addPeer(url, hub.key);
    for (let i = 0; i < 2; i++) await syncOk(desk);
    clock.advance(31 * DAY);
    await sell(1);
    expect((await elsewhere.read()).ops).toBe(opsHeld(hub));
    const compacted = await hub.engine.sync.compact();
    expect(compacted.removed).toBeGreaterThan(0);
    const now = await status();
    expect(now.ops).toBe(opsHeld(hub));
    expect(now.ops).toBeLessThan(before.ops);
    expect(now).toEqual(await opLogSize(db));
    expect(await elsewhere.read()).toEqual(await opLogSize(db));

    await sell(1);
    expect((await status()).ops).toBe(opsHeld(hub));
    expect((await elsewhere.read()).ops).toBe(opsHeld(hub));
  });
});
