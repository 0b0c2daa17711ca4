import { sql, type Kysely } from 'kysely';

/**
 * Issue 39 (no hub-wide turn on PostgreSQL). Two things the hub's writes need once they run side by
 * side (db/postgres/transaction.ts):
 *
 * - `tourdesk_write_origin()`: the origin the calling connection numbers and stamps its ops under,
 *   its `hub_origins` row (a row the function made is not visible to the statement that called it,
 *   so the function answers the row itself). `ROWS 1`: with a set-returning function's default
 *   estimate (1,000 rows) the fold's first statement was planned at a cost that had PostgreSQL
 *   compile it (JIT) every time, 180-240 ms a write (auto_explain in the hub bench).
 *   (docs/hub.md, "Two hub processes writing at once"). An origin's seqs must be gapless and commit in
 *   order, and under REPEATABLE READ two open writes that update one origin's `hub_origins` row would
 *   abort each other; so each database connection that writes leases an origin of the hub's for its
 *   life (a session advisory lock on the connection itself: the lock and the writes it covers end
 *   together, so a lost connection can never leave a writer numbering an origin another one took).
 *   A connection runs one transaction at a time, so its writes number their origin one after another.
 *   The hub's own origin (sync_instance.origin) is tried first, then the ones earlier connections made;
 *   a new one is recorded as an earlier self of the hub's (sync_incarnations) in the transaction that
 *   first writes under it. The lease is remembered in a session setting: a transaction that rolls back
 *   also forgets a lease it made (the row it made is gone with it), and the next write leases again
 *   (the connection's advisory lock on an origin it already holds is granted again at once). A lease
 *   whose row a restore retired (db/queries/syncIncarnation.ts) is let go, and another taken.
 * - `tourdesk_claims`: a row per session (and per voucher) that writes side by side update to say
 *   they depend on it. Under REPEATABLE READ two open transactions that update one row cannot both
 *   commit, so two bookings of one session never both count its seats from before the other's booking
 *   (db/queries/claims.ts). No sync capture: nothing in it is data.
 *
 * SQLite runs its writes one at a time: nothing to do there.
 */
export const LEASE_SPACE = 0x74646f72;
export const WRITE_ORIGIN_SETTING = 'tourdesk.write_origin';

export async function up(): Promise<void> {}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE tourdesk_claims (key TEXT PRIMARY KEY, n BIGINT NOT NULL DEFAULT 0)`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION tourdesk_write_origin() RETURNS SETOF hub_origins LANGUAGE plpgsql VOLATILE ROWS 1 AS $fn$
DECLARE
  mine text := nullif(current_setting('${WRITE_ORIGIN_SETTING}', true), '');
  identity text;
  candidate text;
BEGIN
  IF mine IS NOT NULL THEN
    IF EXISTS (SELECT 1 FROM hub_origins h WHERE h.origin = mine) THEN
      RETURN QUERY SELECT h.* FROM hub_origins h WHERE h.origin = mine;
      RETURN;
    END IF;
    -- Retired by a restore (the hub became a new incarnation): let it go and lease again.
    PERFORM pg_advisory_unlock(${LEASE_SPACE}, hashtext(mine));
    mine := NULL;
  END IF;
  SELECT origin INTO identity FROM sync_instance WHERE id = 1;
  IF NOT EXISTS (SELECT 1 FROM hub_origins WHERE origin = identity) THEN
    INSERT INTO hub_origins (origin, last_seq, last_hlc) SELECT origin, last_seq, last_hlc FROM sync_instance WHERE id = 1 ON CONFLICT (origin) DO NOTHING;
  END IF;
  -- An origin this connection holds already first (a lease forgotten by a rollback), so it holds one at most.
  FOR candidate IN SELECT o.origin FROM hub_origins o
      ORDER BY EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.classid = ${LEASE_SPACE}
                         AND l.objsubid = 2 AND l.objid::bigint = (hashtext(o.origin)::bigint & 4294967295)) DESC,
               o.origin = identity DESC, o.origin LOOP
    IF pg_try_advisory_lock(${LEASE_SPACE}, hashtext(candidate)) THEN
      mine := candidate;
      EXIT;
    END IF;
  END LOOP;
  WHILE mine IS NULL LOOP
    candidate := substr(replace(gen_random_uuid()::text, '-', ''), 1, 16);
    IF pg_try_advisory_lock(${LEASE_SPACE}, hashtext(candidate)) THEN
      INSERT INTO hub_origins (origin) VALUES (candidate);
      INSERT INTO sync_incarnations (origin, successor, at) VALUES (candidate, identity, (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
      mine := candidate;
    END IF;
  END LOOP;
  PERFORM set_config('${WRITE_ORIGIN_SETTING}', mine, false);
  RETURN QUERY SELECT h.* FROM hub_origins h WHERE h.origin = mine;
END
$fn$`,
    )
    .execute(db);
}
