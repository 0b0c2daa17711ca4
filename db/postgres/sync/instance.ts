import type { SyncInstanceTable } from '../../schema';
import type { CaptureRow, SyncStore } from '../../syncStore';
import { CAPTURE_PAUSED_SETTING } from '../../syncCapture';
import type { PostgresQuery, SharedSyncState } from './query';

type PostgresInstance = Pick<
  SyncStore,
  | 'instance' | 'hubOriginNow' | 'saveClock' | 'setHub' | 'beginWork' | 'pauseCapture' | 'resumeCapture' | 'captures' | 'lastCaptureId'
  | 'dropCapturesAfter' | 'dropCapturesUpTo' | 'vector' | 'setVector' | 'deferForeignKeys' | 'predecessors' | 'raiseSequences'
>;

/**
 * The origin this connection writes under, leased at its first write (migration 20261207_21): a
 * scalar subquery, so the function runs once per statement and the key lookups use their index.
 */
const WRITE_ORIGIN = '(SELECT origin FROM tourdesk_write_origin())';

/**
 * sync_instance with the write origin's seq and clock: its hub_origins row as the function answers it
 * (a row it makes at a first lease is not visible to the statement that called it otherwise).
 */
export const INSTANCE = `SELECT i.id, o.origin, o.last_seq, o.last_hlc, i.hub_origin FROM sync_instance i CROSS JOIN tourdesk_write_origin() o WHERE i.id = 1`;

/**
 * The instance's own sync state on PostgreSQL. The capture triggers are paused by a
 * transaction-local setting (set_config(…, true)), not a marker row, so two hub processes never
 * touch a shared row for it; a rollback resets it. Foreign keys are deferred with
 * `SET CONSTRAINTS ALL DEFERRED` (they are DEFERRABLE, db/postgres/ddl.ts).
 */
export function postgresInstance({ run, first }: PostgresQuery, shared: SharedSyncState): PostgresInstance {
  return {
    // The connection's write origin and its state in place of sync_instance's: what its writes number and stamp from.
    async instance() {
      const row = (await first<SyncInstanceTable>(INSTANCE))!;
      shared.hubOrigin = row.hub_origin;
      return row;
    },
    // The hub as last read by any statement of this process (pairing sets it; every fold and page reads it).
    hubOriginNow: () => shared.hubOrigin,
    saveClock: async (lastSeq, lastHlc) => void (await run(`UPDATE hub_origins SET last_seq = $1, last_hlc = $2 WHERE origin = ${WRITE_ORIGIN}`, [lastSeq, lastHlc])),
    setHub: async (origin) => {
      await run('UPDATE sync_instance SET hub_origin = $1 WHERE id = 1', [origin]);
      shared.hubOrigin = origin;
    },
    beginWork: () => undefined,
    pauseCapture: async () => void (await run(`SELECT set_config('${CAPTURE_PAUSED_SETTING}', 'on', true)`)),
    resumeCapture: async () => void (await run(`SELECT set_config('${CAPTURE_PAUSED_SETTING}', 'off', true)`)),
    // The triggers write the key with json_agg's spacing; the op's entity id is the compact JSON SQLite writes.
    captures: async () => (await run<CaptureRow>('SELECT * FROM sync_capture WHERE id > 0 ORDER BY id')).map((c) => ({ ...c, pk: JSON.stringify(JSON.parse(c.pk)) })),
    lastCaptureId: async () => (await first<{ id: number | null }>('SELECT max(id) AS id FROM sync_capture WHERE id > 0'))?.id ?? 0,
    dropCapturesAfter: async (id) => void (await run('DELETE FROM sync_capture WHERE id > $1', [id])),
    dropCapturesUpTo: async (id) => void (await run('DELETE FROM sync_capture WHERE id > 0 AND id <= $1', [id])),
    vector: async () => Object.fromEntries((await run<{ origin: string; seq: number }>('SELECT origin, seq FROM sync_vector')).map((r) => [r.origin, r.seq])) as Record<string, number>,
    setVector: async (origin, seq) => void (await run('INSERT INTO sync_vector (origin, seq) VALUES ($1, $2) ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq', [origin, seq])),
    deferForeignKeys: async () => void (await run('SET CONSTRAINTS ALL DEFERRED')),
    predecessors: async (origin) => (await run<{ origin: string }>('SELECT origin FROM sync_incarnations WHERE successor = $1', [origin])).map((r) => r.origin),
    raiseSequences: async (globalSeq, orderSeq) => {
      await run('UPDATE sequences SET value = GREATEST(value, $1) WHERE name = $2', [globalSeq, 'global']);
      await run('UPDATE sequences SET value = GREATEST(value, $1) WHERE name = $2', [orderSeq, 'order']);
    },
  };
}
