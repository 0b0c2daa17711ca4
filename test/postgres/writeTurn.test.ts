import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { turnStats } from '../../db/postgres/writeTurn';
import { inWriteTransaction } from '../../db/transaction';
import { claimRows } from '../../db/queries/claims';
import { hubForFile } from '../fixtures/postgres';

/**
 * The section every hub write takes in turn (the write-turn lock) is what bounds the hub whatever the
 * number of processes; the bench prints 1 / its time per booking as the hub's ceiling, so the count
 * must cover exactly the time a write holds it.
 */
const hub = hubForFile('turn');

/**
 * Starts `count` writes at once through `write`, each holding its transaction `ms` after its first
 * statement; answers each one's span [start, end], in the order they started.
 */
async function spansOf(count: number, ms: number, write: (work: Parameters<typeof inWriteTransaction>[1]) => Promise<unknown>): Promise<[number, number][]> {
  const spans: [number, number][] = [];
  await Promise.all(
    Array.from({ length: count }, () =>
      write(async (conn) => {
        await sql`SELECT 1`.execute(conn);
        const start = performance.now();
        await sleep(ms);
        spans.push([start, performance.now()]);
      }),
    ),
  );
  return spans.sort((a, b) => a[0] - b[0]);
}

describe('the hub-wide write turn', () => {
  it('is counted once per write, for at least the time the write ran in it', async () => {
    const before = turnStats();
    await inWriteTransaction(hub.handle.db, async (conn) => {
      await sql`SELECT 1`.execute(conn);
      await sleep(40);
    });
    const after = turnStats();
    expect(after.turns - before.turns).toBe(1);
    expect(after.heldMs - before.heldMs).toBeGreaterThanOrEqual(40);
  });

  it('is not taken by a dry run (a quote commits nothing and runs beside the writes)', async () => {
    const before = turnStats();
    await inWriteTransaction(hub.handle.db, async (conn) => void (await sql`SELECT 1`.execute(conn)), { dryRun: true });
    expect(turnStats().turns).toBe(before.turns);
  });

  it('is held by one write at a time: writes started together run one after another inside it', async () => {
    const before = turnStats();
    const spans = await spansOf(4, 15, (work) => inWriteTransaction(hub.handle.db, work));
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
    const after = turnStats();
    expect(after.turns - before.turns).toBe(4);
    expect(after.heldMs - before.heldMs).toBeGreaterThanOrEqual(spans.reduce((sum, [s, e]) => sum + (e - s), 0));
  });

  it('is let go when a write throws and when its COMMIT fails, so the next write gets it', async () => {
    await sql`CREATE TABLE turn_parent (id int PRIMARY KEY)`.execute(hub.handle.db);
    await sql`CREATE TABLE turn_child (parent int REFERENCES turn_parent DEFERRABLE INITIALLY DEFERRED)`.execute(hub.handle.db);
    const held = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'tourdesk_write_turn'::regclass`.execute(hub.handle.db)).rows[0].n;
    await expect(inWriteTransaction(hub.handle.db, async () => Promise.reject(new Error('the work failed')))).rejects.toThrow('the work failed');
    expect(await held()).toBe(0);
    // The dangling key is only checked at COMMIT: the COMMIT itself fails.
    await expect(inWriteTransaction(hub.handle.db, async (conn) => void (await sql`INSERT INTO turn_child VALUES (1)`.execute(conn)))).rejects.toMatchObject({ code: '23503' });
    expect(await held()).toBe(0);
    await inWriteTransaction(hub.handle.db, async (conn) => void (await sql`INSERT INTO turn_parent VALUES (1)`.execute(conn)));
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM turn_parent`.execute(hub.handle.db)).rows[0].n).toBe(1);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM turn_child`.execute(hub.handle.db)).rows[0].n).toBe(0);
  });

  it('keeps arrival order commit order: a write started while another holds ops uncommitted adds its own only after that one commits', async () => {
    const insertOp = (conn: Parameters<Parameters<typeof inWriteTransaction>[1]>[0], seq: number) =>
      sql`INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema) VALUES ('turntest', ${seq}, ${`00000000000000${seq}-000000-turntest`}, 'customers', ${`[${seq}]`}, 'insert', '{}', 1)`.execute(conn);
    const pulled = async () => (await sql<{ seq: number }>`SELECT seq::int AS seq FROM sync_ops WHERE origin = 'turntest' ORDER BY arrival`.execute(hub.handle.db)).rows.map((r) => r.seq);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstInserted!: () => void;
    const inserted = new Promise<void>((r) => (firstInserted = r));
    const first = inWriteTransaction(hub.handle.db, async (conn) => {
      await insertOp(conn, 1);
      firstInserted();
      await gate;
    });
    await inserted;
    let secondDone = false;
    const second = inWriteTransaction(hub.handle.db, (conn) => insertOp(conn, 2)).then(() => void (secondDone = true));
    // The second write is queued for the turn (its lock not granted) rather than adding its op beside the first's.
    for (let i = 0; i < 400 && !secondDone; i++) {
      const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'tourdesk_write_turn'::regclass AND NOT granted`.execute(hub.handle.db);
      if (waiting.rows[0].n > 0) break;
      await sleep(10);
    }
    // A pull now sees neither: not the second's op before the first's, which is still uncommitted.
    expect(await pulled()).toEqual([]);
    expect(secondDone).toBe(false);
    release();
    await Promise.all([first, second]);
    expect(await pulled()).toEqual([1, 2]);
  });
});

describe('writes side by side (a booking’s create)', () => {
  const besideWrite = (work: Parameters<typeof inWriteTransaction>[1]) => inWriteTransaction(hub.handle.db, work, { sideBySide: true });

  it('run at once, outside the turn, and are counted apart', async () => {
    const before = turnStats();
    const spans = await spansOf(3, 60, besideWrite);
    // Each started before the one before it ended.
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeLessThan(spans[i - 1][1]);
    const after = turnStats();
    expect(after.turns).toBe(before.turns);
    expect(after.beside - before.beside).toBe(3);
  });

  it('wait for a write in turn, and a write in turn waits for them', async () => {
    const waiting = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'tourdesk_write_turn'::regclass AND NOT granted`.execute(hub.handle.db)).rows[0].n;
    const untilWaiting = async () => {
      for (let i = 0; i < 400 && (await waiting()) === 0; i++) await sleep(10);
    };
    for (const [first, second] of [
      [besideWrite, (work: Parameters<typeof inWriteTransaction>[1]) => inWriteTransaction(hub.handle.db, work)],
      [(work: Parameters<typeof inWriteTransaction>[1]) => inWriteTransaction(hub.handle.db, work), besideWrite],
    ] as const) {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const order: string[] = [];
      const one = first(async () => {
        await gate;
        order.push('first');
      });
      await sleep(20);
      const two = second(async () => void order.push('second'));
      await untilWaiting();
      expect(await waiting()).toBe(1);
      release();
      await Promise.all([one, two]);
      expect(order).toEqual(['first', 'second']);
    }
  });

  it('that claim one row never both commit on what they read before the other: the loser is retried on the winner’s rows', async () => {
    await sql`CREATE TABLE claim_seats (taken_by int)`.execute(hub.handle.db);
    const before = turnStats();
    // Each takes the one seat if nobody has, after a pause that lets every other one read too.
    const takeTheSeat = (who: number, claim: boolean) =>
      besideWrite(async (conn) => {
        if (claim) await claimRows(conn, ['session:test-seat']);
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM claim_seats`.execute(conn);
        await sleep(40);
        if (rows[0].n === 0) await sql`INSERT INTO claim_seats VALUES (${who})`.execute(conn);
      });
    await Promise.all([1, 2, 3, 4].map((who) => takeTheSeat(who, true)));
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM claim_seats`.execute(hub.handle.db)).rows[0].n).toBe(1);
    const after = turnStats();
    expect(after.beside + after.turns - before.beside - before.turns).toBeGreaterThan(4);
    // Without the claim, all four read an empty table and all four take the seat.
    await sql`DELETE FROM claim_seats`.execute(hub.handle.db);
    await Promise.all([1, 2, 3, 4].map((who) => takeTheSeat(who, false)));
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM claim_seats`.execute(hub.handle.db)).rows[0].n).toBe(4);
  });
});
