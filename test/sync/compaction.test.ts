import { describe, expect, it } from 'vitest';
import { aBooking, aCategory, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import { nodesClosedAfterEach, syncOk, type SyncNode } from './nodes';
import { tourdesk } from './cliInProcess';

/**
 * A bounded op log (docs/sync.md): ops every known instance holds and older than the horizon go,
 * and the instances still converge; one further behind rejoins from the hub's snapshot by itself.
 * Real servers paired over HTTP, so the hub learns what each desk holds from its pulls.
 */
const { listening: open } = nodesClosedAfterEach();

const DAY = 86_400_000;
const START = '2030-01-15T00:00:00Z';
const clocks: ReturnType<typeof fixedClock>[] = [];
/** Every instance's clock moves together (a season passing), so no stamp is refused as ahead. */
const passDays = (days: number) => clocks.forEach((c) => c.advance(days * DAY));

function listening(name: string, instanceNo: number, desk: boolean) {
  const clock = fixedClock(START);
  clocks.push(clock);
  return open(name, { instanceNo, clock, ...(desk ? { dialect: 'sqlite' as const } : {}) });
}

async function hubAndDesks(desks: number) {
  clocks.length = 0;
  const { node: hub, url } = await listening('hub', 1, false);
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 200, startTimeLocal: '2030-06-01 09:00:00' }))).status).toBe(200);
  const list: SyncNode[] = [];
  for (let i = 0; i < desks; i++) {
    const { node: desk } = await listening(`desk${i}`, 2 + i, true);
    await desk.engine.sync.addPeer(url, hub.key);
    await syncOk(desk);
    list.push(desk);
  }
  return { hub, desks: list, productCode: product.productCode as string };
}

async function sell(n: SyncNode, productCode: string, adults = 1): Promise<string> {
  const answer = await n.call('POST', '/v1/bookings', aBooking(productCode, '2030-06-01T09:00:00+10:00', [{ optionLabel: 'Adult', value: adults }]));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.booking.orderNumber as string;
}

const opsHeld = async (n: SyncNode) => (await n.call('GET', '/v1/sync/status')).body.opLog.ops as number;

describe('a bounded op log', () => {
  it('compacts what every instance holds past the horizon, and the instances still converge on later writes', async () => {
    const { hub, desks: [desk], productCode } = await hubAndDesks(1);
    const early = [await sell(hub, productCode), await sell(desk, productCode, 2)];
    await syncOk(desk);
    await syncOk(desk); // the hub hears what the desk holds on its next pull
    // Within the horizon nothing goes.
    expect((await hub.engine.sync.compact()).removed).toBe(0);
    passDays(31);
    const before = [await opsHeld(hub), await opsHeld(desk)];
    const [atHub, atDesk] = [await hub.engine.sync.compact(), await desk.engine.sync.compact()];
    expect(atHub.removed).toBeGreaterThan(0);
    expect(atDesk.removed).toBeGreaterThan(0);
    expect([await opsHeld(hub), await opsHeld(desk)]).toEqual([before[0] - atHub.removed, before[1] - atDesk.removed]);
    expect(atHub.after.ops).toBe(atHub.before.ops - atHub.removed);

    // Later writes touch compacted rows too: an edit and a cancel of the early bookings, new sales.
    expect((await desk.call('DELETE', `/v1/bookings/${early[0]}`)).status).toBeLessThan(300);
    expect((await hub.call('PUT', `/v1/bookings/${early[1]}`, { resellerReference: 'WINDOW-7' })).status).toBeLessThan(300);
    await sell(hub, productCode, 3);
    await sell(desk, productCode, 1);
    await syncOk(desk);
    expect(await desk.dump()).toBe(await hub.dump());
    expect(await desk.engine.replica.vector()).toEqual(await hub.engine.replica.vector());
    for (const n of [hub, desk]) expect((await n.call('GET', `/v1/bookings/${early[0]}`)).body.booking.status).toBe('CANCELLED');
  });

  it('waits for a desk that lacks ops until it is forgotten; back, that desk rejoins from the snapshot without anyone doing anything', async () => {
    const { hub, desks: [a, b], productCode } = await hubAndDesks(2);
    const category = (await hub.call('POST', '/v1/categories', aCategory())).body.category;
    await syncOk(b);
    await syncOk(a);
    expect((await b.call('GET', `/v1/categories/${category.id}`)).status).toBe(200);
    // Deleted while b is away: its delete op goes with the compaction, its tombstone stays.
    expect((await hub.call('DELETE', `/v1/categories/${category.id}`)).status).toBeLessThan(300);
    // b goes quiet; the season goes on at the hub and a.
    for (let i = 0; i < 3; i++) await sell(hub, productCode);
    await sell(a, productCode);
    await syncOk(a);
    await syncOk(a);
    passDays(31);
    const compacted = await hub.engine.sync.compact();
    // Only what b holds too may go: none of the sales b has not seen. (A PostgreSQL hub numbers its
    // writes under an origin per connection: every origin's floor counts.)
    const floors = () => hub.sql.prepare('SELECT origin, seq FROM sync_compacted').all() as { origin: string; seq: number }[];
    const heldByB = await b.engine.replica.vector();
    const pastB = () => floors().filter((f) => f.seq > (heldByB[f.origin] ?? 0));
    expect(pastB()).toEqual([]);
    expect(compacted.after.ops).toBeGreaterThan(0);

    await hub.engine.sync.forgetInstance(3);
    expect((await hub.engine.sync.compact()).removed).toBeGreaterThan(0);
    expect(pastB().length).toBeGreaterThan(0);

    // b was offline, not dead: it sold meanwhile, and comes back.
    const offline = await sell(b, productCode, 2);
    const lines: string[] = [];
    const [result] = await b.engine.sync.syncAll();
    expect(result.error, lines.join('\n')).toBeNull();
    await syncOk(a);
    expect(await b.dump()).toBe(await hub.dump());
    expect(await a.dump()).toBe(await hub.dump());
    for (const n of [hub, a, b]) expect((await n.call('GET', `/v1/bookings/${offline}`)).status).toBe(200);
    expect((await b.call('GET', `/v1/categories/${category.id}`)).status).toBe(404);
    // It is known again, and holds compaction back again.
    expect((await hub.call('GET', '/v1/sync/status')).body.seenBy.map((s: { instanceNo: number }) => s.instanceNo).sort()).toEqual([2, 3]);
  });

  it('answers the op log’s size in the status: ops held and bytes', async () => {
    const { hub, desks: [desk], productCode } = await hubAndDesks(1);
    const empty = (await hub.call('GET', '/v1/sync/status')).body.opLog;
    await sell(hub, productCode, 2);
    const status = (await hub.call('GET', '/v1/sync/status')).body.opLog;
    expect(status.ops).toBeGreaterThan(empty.ops);
    expect(status.bytes).toBeGreaterThan(0);
    expect((await desk.call('GET', '/v1/sync/status')).body.opLog.ops).toBeGreaterThan(0);
  });

  it('runs now from the command line with a one-line result, and refuses a horizon that is not a number of days', async () => {
    const { desks: [desk] } = await hubAndDesks(1);
    const held = await opsHeld(desk);
    const run = await tourdesk('compact', '--data-dir', desk.dir);
    expect(run.code).toBe(0);
    // This process's clock is years before the test's stamps: nothing is past the horizon yet.
    expect(run.out).toMatch(new RegExp(`^Compacted: removed 0 ops; op log [\\d.]+ [km]B -> [\\d.]+ [km]B \\(${held} -> ${held} ops\\)$`));
    expect(await tourdesk('compact', '--horizon-days', 'soon', '--data-dir', desk.dir)).toEqual({ code: 2, out: '--horizon-days must be a whole number of days (30 by default)' });
  });
});
