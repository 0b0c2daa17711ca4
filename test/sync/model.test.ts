import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exchangeWith, type PeerTransport } from '../../main/sync/exchange';
import { answerPull, answerPush, answerSnapshot } from '../../main/sync/serving';
import type { PushRequest } from '../../main/sync/wire';
import { SYNCED_ENTITIES } from '../../main/sync/entities';
import type { Op } from '../../main/sync/op';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { fixedClock } from '../fixtures/app';
import { aSyncNode, type SyncNode } from './nodes';

/**
 * The model-based property test of issue 16: a hub and two desks, each a real engine on its own
 * SQLite file, doing random sales (one small session, so last-seat races are common), cancels,
 * edits, check-ins, capacity changes (the hub; a desk is refused), customer erasures, with skewed
 * clocks, exchanging through a transport that drops, duplicates, delays (delivers late, out of
 * order), shuffles and interrupts pages, a throw in the middle of applying a page, and a desk wiped
 * and rejoining. The model is what was acknowledged; after a final full exchange every instance
 * must hold exactly it.
 */

const START = '2030-02-01T09:00:00+11:00';
const LOCAL = '2030-02-01 09:00:00';

type Fault = 'none' | 'dropRequest' | 'dropResponse' | 'duplicate' | 'delay' | 'shuffle';
const faultArb = fc.constantFrom<Fault>('none', 'none', 'none', 'dropRequest', 'dropResponse', 'duplicate', 'delay', 'shuffle');

type Command =
  | { kind: 'sell'; at: number; seats: number }
  | { kind: 'cancel'; at: number; booking: number }
  | { kind: 'edit'; at: number; booking: number; reference: string }
  | { kind: 'checkin'; at: number; booking: number }
  | { kind: 'capacity'; at: number; seats: number }
  | { kind: 'erase'; at: number; booking: number }
  | { kind: 'exchange'; from: number; to: number; faults: Fault[] }
  | { kind: 'throwMidApply'; at: number }
  | { kind: 'deliverLate'; index: number }
  | { kind: 'wipe'; desk: number }
  | { kind: 'tick'; ms: number };

const node = fc.integer({ min: 0, max: 2 }); // 0 = hub
const pick = fc.nat({ max: 50 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sell' as const), at: node, seats: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), at: node, booking: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: node, booking: pick, reference: fc.constantFrom('WINDOW-1', 'WINDOW-2', 'PHONE') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('checkin' as const), at: node, booking: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('capacity' as const), at: node, seats: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('erase' as const), at: node, booking: pick }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('exchange' as const), from: fc.integer({ min: 1, max: 2 }), to: node, faults: fc.array(faultArb, { minLength: 1, maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('throwMidApply' as const), at: node }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deliverLate' as const), index: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wipe' as const), desk: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 3_600_000 }) }) },
);

/** Desks' clocks against the hub's: behind by up to two hours, or ahead by up to four minutes (under the 5-minute refusal). */
const skewArb = fc.integer({ min: -2 * 3_600_000, max: 4 * 60_000 });

interface SaleModel {
  orderNumber: string;
  customerId: number;
  seats: number;
  cancelled: boolean;
  references: Set<string | null>;
  checkedIn: boolean;
  erased: boolean;
  name: string;
}

class Dropped extends Error {}

interface World {
  nodes: SyncNode[];
  dirs: string[];
  sales: SaleModel[];
  capacity: number;
  sessionId: number;
  productCode: string;
  late: { to: SyncNode; request: PushRequest }[];
  nextInstance: number;
  nextName: number;
}

/** A transport into `to`'s answer functions with faults: small pages so exchanges are interrupted mid-way. */
function faultyTransport(world: World, to: SyncNode, faults: Fault[]): PeerTransport {
  let call = 0;
  const next = () => faults[call++ % faults.length];
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));
  return {
    // A fresh or wiped desk joins from a snapshot; its pages are lost or cut like any other.
    async snapshot(request) {
      const fault = next();
      if (fault === 'dropRequest') throw new Dropped('request lost');
      const response = copy(await answerSnapshot(to.side, { ...request, limit: 7 }));
      if (fault === 'dropResponse') throw new Dropped('response lost');
      return response;
    },
    async pull(request) {
      const fault = next();
      if (fault === 'dropRequest') throw new Dropped('request lost');
      const response = copy(await answerPull(to.side, { ...request, limit: Math.min(request.limit, 3) }));
      if (fault === 'dropResponse') throw new Dropped('response lost');
      if (fault === 'shuffle') response.ops.reverse();
      return response;
    },
    async push(request) {
      // Split into small pages, each its own request, so a fault can cut an exchange half-way.
      let answer!: Awaited<ReturnType<PeerTransport['push']>>;
      for (let i = 0; i < request.ops.length; i += 3) {
        const page: PushRequest = copy({ ...request, ops: request.ops.slice(i, i + 3) });
        const fault = next();
        if (fault === 'dropRequest') throw new Dropped('request lost');
        if (fault === 'delay') {
          world.late.push({ to, request: copy(page) });
          throw new Dropped('timed out');
        }
        if (fault === 'shuffle') page.ops.reverse();
        answer = await answerPush(to.side, page);
        if (fault === 'duplicate') answer = await answerPush(to.side, copy(page));
        if (fault === 'dropResponse') throw new Dropped('response lost');
      }
      return answer;
    },
  };
}

/** Only the refusals the protocol defines (or an injected fault) may stop an exchange. */
function expectSafeFailure(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  expect(message).toMatch(/request lost|response lost|timed out|skips ops|injected|ahead of this machine's clock/);
}

async function call(n: SyncNode, method: string, url: string, body?: unknown) {
  return n.call(method, url, body);
}

async function allOps(n: SyncNode): Promise<Op[]> {
  return (await n.engine.replica.pageFor({}, 1_000_000, 1 << 30)).ops;
}

async function newWorld(skews: number[]): Promise<World> {
  const hub = await aSyncNode('hub', { instanceNo: 1 });
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  const session = (await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 3 }))).body.session;
  const world: World = { nodes: [hub], dirs: [], sales: [], capacity: 3, sessionId: session.id, productCode: product.productCode, late: [], nextInstance: 4, nextName: 0 };
  for (const [i, skew] of skews.entries()) world.nodes.push(await aDesk(world, `desk${i + 1}`, i + 2, skew));
  return world;
}

async function aDesk(world: World, name: string, instanceNo: number, skewMs: number): Promise<SyncNode> {
  const hub = world.nodes[0];
  const clock = fixedClock(new Date(hub.clock.now().getTime() + skewMs).toISOString());
  const dir = mkdtempSync(join(tmpdir(), `tourdesk-model-${name}-`));
  world.dirs.push(dir);
  const desk = await aSyncNode(name, { instanceNo, hub, clock, dir });
  await exchangeWith(desk.side, faultyTransport(world, hub, ['none']));
  return desk;
}

async function run(world: World, command: Command): Promise<void> {
  const { nodes, sales } = world;
  const sale = (i: number) => (sales.length ? sales[i % sales.length] : null);
  for (const n of nodes) n.clock.advance(1000);
  switch (command.kind) {
    case 'sell': {
      const name = `Guest${world.nextName++}`;
      const res = await call(nodes[command.at], 'POST', '/v1/bookings', aBooking(world.productCode, START, [{ optionLabel: 'Adult', value: command.seats }], { customer: { firstName: name, lastName: 'Zed', email: `${name.toLowerCase()}@example.test` }, comments: `${name} asked for a window seat` }));
      if (res.status === 200) {
        const b = res.body.booking;
        sales.push({ orderNumber: b.orderNumber, customerId: b.customer.id, seats: command.seats, cancelled: false, references: new Set([null]), checkedIn: false, erased: false, name });
      } else expect(res.body.requestStatus.error.errorCode, JSON.stringify(res.body)).toMatch(/NO_SEATS|NOT_FOUND|VALIDATION/);
      return;
    }
    case 'cancel': {
      const s = sale(command.booking);
      if (!s) return;
      const res = await call(nodes[command.at], 'DELETE', `/v1/bookings/${s.orderNumber}`);
      if (res.status === 200) s.cancelled = true;
      return;
    }
    case 'edit': {
      const s = sale(command.booking);
      if (!s) return;
      const res = await call(nodes[command.at], 'PUT', `/v1/bookings/${s.orderNumber}`, { resellerReference: command.reference });
      if (res.status === 200) s.references.add(command.reference);
      return;
    }
    case 'checkin': {
      const s = sale(command.booking);
      if (!s) return;
      const res = await call(nodes[command.at], 'PUT', `/v1/manifest/checkinOrderSession?orderNumber=${s.orderNumber}&productCode=${world.productCode}&startTimeLocal=${encodeURIComponent(LOCAL)}`);
      if (res.status === 200) s.checkedIn = true;
      return;
    }
    case 'capacity': {
      const res = await call(nodes[command.at], 'PUT', `/v1/availability/${world.sessionId}`, { seats: command.seats });
      if (command.at === 0) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        world.capacity = command.seats;
      } else {
        expect(res.status).toBe(403);
        expect(res.body.requestStatus.error.errorCode).toBe('CATALOGUE_OWNED_BY_HUB');
      }
      return;
    }
    case 'erase': {
      const s = sale(command.booking);
      if (!s) return;
      const res = await call(nodes[command.at], 'DELETE', `/v1/customers/${s.customerId}`);
      if (res.status === 200) s.erased = true;
      return;
    }
    case 'exchange': {
      const from = nodes[command.from];
      const to = nodes[command.to];
      if (from === to) return;
      await exchangeWith(from.side, faultyTransport(world, to, command.faults)).catch(expectSafeFailure);
      return;
    }
    case 'throwMidApply': {
      const target = nodes[command.at];
      const source = nodes[command.at === 0 ? 1 : 0];
      const before = await target.dump();
      const vector = JSON.stringify(await target.engine.replica.vector());
      // The vector is advanced last in a page's transaction: failing there means every op of the page was already written.
      const undo = target.failVectorWrites();
      try {
        const pulled = await exchangeWith(target.side, faultyTransport(world, source, ['none'])).then(
          () => false,
          (error) => (expectSafeFailure(error), true),
        );
        if (pulled) {
          expect(await target.dump()).toBe(before);
          expect(JSON.stringify(await target.engine.replica.vector())).toBe(vector);
        }
      } finally {
        undo();
      }
      return;
    }
    case 'deliverLate': {
      if (world.late.length === 0) return;
      const [late] = world.late.splice(command.index % world.late.length, 1);
      if (!nodes.includes(late.to)) return; // wiped since
      const dump = await late.to.dump();
      try {
        const answer = await answerPush(late.to.side, late.request);
        // A late page is applied only when it continues the vector; otherwise it is all duplicates.
        if (answer.applied === 0) expect(await late.to.dump()).toBe(dump);
      } catch (error) {
        expectSafeFailure(error);
        expect(await late.to.dump()).toBe(dump);
      }
      return;
    }
    case 'wipe': {
      const old = nodes[command.desk];
      // What the desk acknowledged reaches the hub first (a desk that never comes back loses what it never sent: docs/sync.md).
      await exchangeWith(old.side, faultyTransport(world, nodes[0], ['none']));
      const skew = old.clock.now().getTime() - nodes[0].clock.now().getTime();
      await old.close();
      nodes[command.desk] = await aDesk(world, `desk${command.desk}-again`, world.nextInstance++, skew);
      expect(await nodes[command.desk].dump()).toBe(await nodes[0].dump());
      return;
    }
    case 'tick':
      for (const n of nodes) n.clock.advance(command.ms);
      return;
  }
}

async function checkFinalState(world: World): Promise<void> {
  const { nodes, sales } = world;
  const [hub] = nodes;
  // A final full exchange: every desk with the hub, twice (the second brings each desk what the other sent).
  for (let round = 0; round < 2; round++) for (const desk of nodes.slice(1)) await exchangeWith(desk.side, faultyTransport(world, hub, ['none']));
  const dump = await hub.dump();
  for (const n of nodes) expect(await n.dump(), `${n.name} differs from the hub`).toBe(dump);

  const live = sales.filter((s) => !s.cancelled);
  const held = live.reduce((sum, s) => sum + s.seats, 0);
  for (const n of nodes) {
    const sqlite = n.sql;
    for (const s of sales) {
      const row = sqlite.prepare('SELECT status, reseller_reference AS ref FROM bookings WHERE order_number = ?').get(s.orderNumber) as { status: string; ref: string | null } | undefined;
      expect(row, `${s.orderNumber} missing on ${n.name}`).toBeDefined();
      expect(row!.status).toBe(s.cancelled ? 'CANCELLED' : 'CONFIRMED');
      expect(s.references.has(row!.ref)).toBe(true);
      if (s.checkedIn) {
        const events = sqlite.prepare('SELECT count(*) AS n FROM checkin_events WHERE order_number = ?').get(s.orderNumber) as { n: number };
        expect(events.n).toBeGreaterThan(0);
      }
    }
    const session = (await n.call('GET', `/v1/availability?productCode=${world.productCode}&startTimeLocal=2030-02-01&endTimeLocal=2030-02-02`)).body.sessions[0];
    expect(session.seats).toBe(world.capacity);
    expect(session.seatsAvailable).toBe(world.capacity - held);
    const conflicts = (await n.call('GET', '/v1/sync/conflicts')).body.conflicts as { sessionId: number; seatsHeld: number; bookings: { orderNumber: string }[] }[];
    if (held > world.capacity) {
      expect(conflicts).toHaveLength(1);
      expect(conflicts[0].seatsHeld).toBe(held);
      expect(conflicts[0].bookings.map((b) => b.orderNumber).sort()).toEqual(live.map((s) => s.orderNumber).sort());
    } else expect(conflicts).toEqual([]);
    // The catalogue is authored by the hub only.
    const catalogueOrigins = sqlite.prepare(`SELECT DISTINCT origin FROM sync_ops WHERE entity IN (${Object.entries(SYNCED_ENTITIES).filter(([, e]) => e.rule === 'catalogue').map(([t]) => `'${t}'`).join(',')})`).all() as { origin: string }[];
    // (a desk that joined from a snapshot holds none of the hub's older ops, only rows)
    // (a PostgreSQL hub's processes write under origins of their own, each an earlier self of the hub's: migration 20261207_21)
    const hubOrigins = [hub.engine.replica.origin, ...(hub.sql.prepare('SELECT origin FROM sync_incarnations WHERE successor = ?').all(hub.engine.replica.origin) as { origin: string }[]).map((r) => r.origin)];
    for (const { origin } of catalogueOrigins) expect(hubOrigins).toContain(origin);
    // An erased customer's personal data is in no stored op (customer, booking or participant).
    const log = JSON.stringify(sqlite.prepare('SELECT change_json FROM sync_ops').all());
    for (const s of sales.filter((x) => x.erased)) expect(log).not.toContain(s.name);
  }
  // Re-applying everything anyone holds changes nothing anywhere.
  for (const source of nodes) {
    const ops = await allOps(source);
    for (const target of nodes) {
      if (target === source) continue;
      const result = await target.engine.replica.apply(ops);
      expect(result.applied).toBe(0);
      expect(await target.dump()).toBe(dump);
    }
  }
}

async function runScenario(skews: number[], commands: Command[]): Promise<void> {
  const world = await newWorld(skews);
  try {
    for (const command of commands) await run(world, command);
    await checkFinalState(world);
  } finally {
    for (const n of world.nodes) await n.close().catch(() => undefined);
    for (const dir of world.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const scenario = fc.asyncProperty(fc.array(skewArb, { minLength: 2, maxLength: 2 }), fc.array(commandArb, { minLength: 4, maxLength: 14 }), runScenario);

/**
 * Every failing case the property ever found, replayed on every run (seed and path as fast-check
 * printed them). Add a line here whenever the property fails, before fixing the cause.
 */
const REGRESSIONS: { seed: number; path: string; why: string }[] = [
  { seed: -153788948, path: '1', why: 'a desk 10 minutes slow refused the hub’s ops as from the future and could never join' },
  { seed: 456063586, path: '24', why: 'the hub, holding only its own ops, looked fresh and took a desk’s snapshot' },
  { seed: -1263348885, path: '4', why: 'a whole-booking check-in at the hub, while a cut push had brought the booking but not its participants, answered 200 checking in nobody' },
  { seed: 1901356954, path: '2', why: 'an erasure missed the comments of a booking an edit had detached from the customer' },
  { seed: 332651687, path: '21', why: 'an erasure that overtook its customer’s insert kept its clocks but not its values, so the insert left updated_at empty and every pull failed' },
  { seed: -2146884130, path: '0', why: 'a desk that rejoined from a snapshot had no ops naming the erased customer’s booking, so the erasure left the guest’s comments there' },
];

/**
 * The random run's seed: fresh each run on a developer's machine (that is how the seeds above were
 * found: hunt with SYNC_MODEL_RUNS=100), fixed under CI so a commit's verdict does not depend on the
 * draw; SYNC_MODEL_SEED replays one run.
 */
const MODEL_SEED = process.env.SYNC_MODEL_SEED ? Number(process.env.SYNC_MODEL_SEED) : process.env.CI ? 20261124 : undefined;

describe('sync model: a hub and two desks on real SQLite files, with faults', () => {
  it('ends with identical instances holding every acknowledged write, whatever the faults', { timeout: 240_000 }, async () => {
    await fc.assert(scenario, { seed: MODEL_SEED, numRuns: Number(process.env.SYNC_MODEL_RUNS ?? 25), endOnFailure: true });
  });

  it.each(REGRESSIONS)('still passes regression seed $seed ($why)', { timeout: 60_000 }, async ({ seed, path }) => {
    await fc.assert(scenario, { seed, path, numRuns: 1, endOnFailure: true });
  });
});
