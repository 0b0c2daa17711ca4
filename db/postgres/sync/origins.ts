import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Kysely } from 'kysely';

/**
 * The origin this hub process numbers and stamps its ops under (docs/hub.md, "Two hub processes
 * writing at once"). Each origin's seqs must be gapless and applied in order (main/sync/vector.ts), so
 * two processes must never number one origin side by side: a process leases an origin of the hub's
 * (hub_origins, migration 20261206_21) with a session advisory lock held on a connection of its own
 * for the process's life. A process that ends (or loses that connection) lets its origin go, and the
 * next process to start takes it over, continuing its seq and clock from its row: the hub has as
 * many origins as processes ever ran at once. The hub's own origin (sync_instance.origin) is tried
 * first, so a hub of one process writes under it as before.
 *
 * An origin made here is recorded as an earlier self of the hub's (sync_incarnations), before the
 * process writes anything under it: the hub's hello lists it (`incarnations`), so desks take its
 * catalogue ops as the hub's (main/sync/incarnationApply.ts), and a restore retires it like the hub's
 * own origin (db/queries/syncIncarnation.ts).
 */
export interface OriginLease {
  /** The leased origin (leased on the first call). */
  origin(): Promise<string>;
  close(): Promise<void>;
}

/** The advisory locks' first key (the two-key form, apart from every one-key lock the hub takes). */
const LEASE_SPACE = 0x74646f72;

const leases = new WeakMap<Kysely<any>, OriginLease>();

/** The lease of the handle whose Kysely is `db` (one per opened database, so two engines in one process each have one). */
export function originLeaseOf(db: Kysely<any>, url: string): OriginLease {
  let lease = leases.get(db);
  if (!lease) leases.set(db, (lease = originLease(url)));
  return lease;
}

/** Ends the handle's lease (its connection); the handle's close calls it. */
export async function closeOriginLease(db: Kysely<any>): Promise<void> {
  await leases.get(db)?.close();
  leases.delete(db);
}

function originLease(url: string): OriginLease {
  let client: pg.Client | null = null;
  let leased: Promise<string> | null = null;
  const take = async (): Promise<string> => {
    const c = new pg.Client({ connectionString: url, application_name: 'tourdesk origin lease' });
    // Losing the connection loses the lock: the next write leases again (another process may have the origin by then).
    c.on('error', () => {
      if (client === c) leased = null;
    });
    await c.connect();
    client = c;
    try {
      return await leaseOn(c);
    } catch (error) {
      client = null;
      await c.end().catch(() => undefined);
      throw error;
    }
  };
  return {
    origin: () => (leased ??= take().catch((error: unknown) => {
      leased = null;
      throw error;
    })),
    async close() {
      const c = client;
      client = null;
      leased = null;
      await c?.end().catch(() => undefined);
    },
  };
}

async function leaseOn(c: pg.Client): Promise<string> {
  await c.query('INSERT INTO hub_origins (origin, last_seq, last_hlc) SELECT origin, last_seq, last_hlc FROM sync_instance WHERE id = 1 ON CONFLICT (origin) DO NOTHING');
  const { rows } = await c.query<{ origin: string; own: boolean }>('SELECT o.origin, o.origin = i.origin AS own FROM hub_origins o CROSS JOIN sync_instance i WHERE i.id = 1 ORDER BY own DESC, o.origin');
  for (const { origin } of rows) if (await tryLock(c, origin)) return origin;
  const identity = rows.find((r) => r.own)!.origin;
  for (;;) {
    const origin = randomBytes(8).toString('hex');
    if (!(await tryLock(c, origin))) continue;
    await c.query('BEGIN');
    try {
      await c.query('INSERT INTO hub_origins (origin) VALUES ($1)', [origin]);
      await c.query('INSERT INTO sync_incarnations (origin, successor, at) VALUES ($1, $2, $3)', [origin, identity, Date.now()]);
      await c.query('COMMIT');
    } catch (error) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return origin;
  }
}

/** Two origins whose hashes meet share a lock: the second is only ever refused, never shared. */
async function tryLock(c: pg.Client, origin: string): Promise<boolean> {
  const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [LEASE_SPACE, origin]);
  return rows[0].ok;
}
