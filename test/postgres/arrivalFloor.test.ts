import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/connection';
import { openPostgres } from '../../db/postgres/connection';
import { postgresSyncStores } from '../../db/postgres/sync';
import type { SyncStore } from '../../db/syncStore';
import { freshPostgresDatabase, postgresAdminUrl, type TestPostgresDatabase } from '../fixtures/postgres';

/**
 * A pull pages by arrival up to a watermark (migration 20261205_21_arrival_floor) that never passes an
 * op still being committed, whatever order writers commit in. Raw clients insert ops here without the
 * hub's write turn, which alone keeps arrival order commit order today.
 */
let database: TestPostgresDatabase;
let handle: DbHandle;
let outside: SyncStore;
const clients: pg.Client[] = [];
beforeAll(async () => {
  database = await freshPostgresDatabase('floor');
  handle = await openPostgres(database.url, { migrate: true });
  outside = postgresSyncStores(handle).outside;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end()));
  await handle?.close();
  await database?.drop();
});

async function client(url = database.url): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  clients.push(c);
  return c;
}
let nextSeq = 1;
/** Inserts one op of `origin` on `c` and answers its arrival. */
async function insertOp(c: pg.Client, origin: string): Promise<{ seq: number; arrival: number }> {
  const seq = nextSeq++;
  const { rows } = await c.query<{ arrival: string }>(
    `INSERT INTO sync_ops (origin, seq, hlc, entity, entity_id, kind, change_json, schema) VALUES ($1, $2, $3, 'customers', $4, 'insert', '{}', 1) RETURNING arrival`,
    [origin, seq, `${String(seq).padStart(15, '0')}-000000-${origin}`, `[${seq}]`],
  );
  return { seq, arrival: Number(rows[0].arrival) };
}
const lastArrival = async () => Number((await handle.postgres!.pool.query('SELECT coalesce(max(arrival), 0) AS a FROM sync_ops')).rows[0].a);
const pulled = async (after: number) => (await outside.opsAfter(after, 1000)).map((r) => [r.origin, r.seq]);
const floorLocks = async (c: pg.Client) =>
  Number((await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid >= 1073741824 AND pid = pg_backend_pid()")).rows[0].n);

describe('the arrival watermark of pulls on PostgreSQL', () => {
  it('returns no op past an earlier arrival still uncommitted, then both in arrival order once it commits', async () => {
    const base = await lastArrival();
    const [early, late] = [await client(), await client()];
    await early.query('BEGIN');
    await late.query('BEGIN');
    const a = await insertOp(early, 'EARLY');
    const b = await insertOp(late, 'LATER');
    expect(b.arrival).toBeGreaterThan(a.arrival);
    await late.query('COMMIT');
    // Committed and visible to a plain read by arrival: what a pull without the watermark would pass on.
    expect((await handle.postgres!.pool.query('SELECT seq FROM sync_ops WHERE arrival > $1', [base])).rows.map((r) => Number(r.seq))).toEqual([b.seq]);
    expect(await pulled(base)).toEqual([]);
    await early.query('COMMIT');
    expect(await pulled(base)).toEqual([['EARLY', a.seq], ['LATER', b.seq]]);
  });

  it('holds a pull below a writer only while it is open, a rollback included, and pages past the bound later', async () => {
    const before = await lastArrival();
    const [slow, fast] = [await client(), await client()];
    await slow.query('BEGIN');
    await insertOp(slow, 'SLOW');
    const c = await insertOp(fast, 'FAST'); // autocommit: committed at once, after the slow one's arrival
    expect(await pulled(before)).toEqual([]);
    await slow.query('ROLLBACK');
    expect(await pulled(before)).toEqual([['FAST', c.seq]]);
    expect(await pulled(c.arrival)).toEqual([]);
  });

  it('takes one lock a transaction however many ops it inserts, and lets it go with the transaction', async () => {
    const c = await client();
    await c.query('BEGIN');
    await insertOp(c, 'MANY');
    await insertOp(c, 'MANY');
    expect(await floorLocks(c)).toBe(1);
    await c.query('SAVEPOINT s');
    await insertOp(c, 'MANY');
    await c.query('ROLLBACK TO SAVEPOINT s');
    expect(await floorLocks(c)).toBe(1);
    await c.query('COMMIT');
    expect(await floorLocks(c)).toBe(0);
    // A new transaction on the same connection takes its own (the remembered setting ended too).
    await c.query('BEGIN');
    await insertOp(c, 'MANY');
    expect(await floorLocks(c)).toBe(1);
    await c.query('COMMIT');
  });

  it('is not held back by advisory locks of another database or by other keys here', async () => {
    const base = await lastArrival();
    const elsewhere = await client(postgresAdminUrl());
    await elsewhere.query('SELECT pg_advisory_lock_shared(4611686018427387904)');
    const here = await client();
    await here.query('SELECT pg_advisory_lock(2126021)'); // the migration lock's key, below the floor's range
    const d = await insertOp(await client(), 'CLEAR');
    expect(d.arrival).toBeGreaterThan(base);
    expect(await pulled(base)).toEqual([['CLEAR', d.seq]]);
    await elsewhere.query('SELECT pg_advisory_unlock_all()');
    await here.query('SELECT pg_advisory_unlock_all()');
  });

  it('lets a puller following its cursor miss no committed op while writers commit out of arrival order', async () => {
    const base = await lastArrival();
    const committed: string[] = [];
    let writing = true;
    const writer = async (w: number) => {
      const c = await client();
      for (let round = 0; round < 25; round++) {
        await c.query('BEGIN');
        const mine: string[] = [];
        for (let i = 0; i <= round % 3; i++) mine.push(`W${w}:${(await insertOp(c, `W${w}`)).seq}`);
        await sleep((round * 7 + w * 3) % 11); // so later arrivals often commit first
        if ((round + w) % 9 === 0) await c.query('ROLLBACK');
        else {
          await c.query('COMMIT');
          committed.push(...mine);
        }
      }
    };
    const seen: string[] = [];
    let cursor = base;
    const pullOnce = async () => {
      for (const row of await outside.opsAfter(cursor, 7)) {
        expect(row.arrival).toBeGreaterThan(cursor);
        seen.push(`${row.origin}:${row.seq}`);
        cursor = row.arrival;
      }
    };
    const puller = (async () => {
      while (writing) {
        await pullOnce();
        await sleep(1);
      }
    })();
    await Promise.all([1, 2, 3, 4].map(writer));
    writing = false;
    await puller;
    for (let before = -1; before !== seen.length; ) {
      before = seen.length;
      await pullOnce();
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...committed].sort());
  });
});
