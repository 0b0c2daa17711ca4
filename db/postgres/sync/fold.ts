import type { SyncInstanceTable } from '../../schema';
import type { CaptureRow, SyncStore } from '../../syncStore';
import { CAPTURE_PAUSED_SETTING } from '../../syncCapture';
import { NOTIFIED_SETTING } from '../../migrations/20261203_41_notified_tables';
import { noteTouchedTables } from '../changes';
import type { PostgresQuery, SharedSyncState } from './query';
import type { FoldRowStates } from './rowState';
import { INSERT_OPS_AND_STATES, OPS_AND_STATES_PARAMS, WITH_OPS_AND_STATES } from './newRows';
import { INSTANCE } from './instance';
import { preparedOnHub } from '../prepared';

type PostgresFold = Pick<SyncStore, 'beginFold' | 'endFold'>;

/** A capture's key as the ops name their row: the compact JSON array JSON.stringify writes. */
const COMPACT_PK = `('[' || (SELECT string_agg(k.value::text, ',' ORDER BY k.n) FROM json_array_elements(c.pk::json) WITH ORDINALITY AS k(value, n)) || ']')`;

/**
 * The fold's start as one statement: the captures in order, each with the instance row (the
 * connection's write origin: instance.ts), the pause (set_config runs once per row returned, so with no
 * captures nothing is paused), and its row's stamps in its merge state, NULL when it has none (so
 * also what withRowStateAmong would ask next, for the write's new rows). The stamps: another process
 * (another origin) may have written the row last, with a stamp later than this process's clock; the
 * fold's clock receives the latest (main/sync/fold.ts). One index lookup per capture, as the EXISTS
 * it replaces; the latest is picked here, not in SQL: splitting the stamps with a set-returning
 * function beside sync_rows made bookings slower as sync_rows grew (bench, all on one session: 36-41
 * bookings/s against 51-72 before it, interleaved; this form measured as before).
 */
const BEGIN_FOLD = preparedOnHub(`SELECT c.id, c.tbl, c.pk, c.old_json, c.new_json, row_to_json(i)::text AS instance_json, set_config('${CAPTURE_PAUSED_SETTING}', 'on', true) AS paused,
    (SELECT concat_ws(' ', r.stamps, r.born, r.deleted, r.erased) FROM sync_rows r WHERE r.entity = c.tbl AND r.entity_id = ${COMPACT_PK}) AS row_stamps
  FROM sync_capture c CROSS JOIN (${INSTANCE}) i WHERE c.id > 0 ORDER BY c.id`);

/** The latest of the captured rows' stamps (encoded stamps order as text), or null. */
function latestStamp(rows: readonly { row_stamps: string | null }[]): string | null {
  let latest: string | null = null;
  for (const { row_stamps } of rows) {
    if (!row_stamps) continue;
    for (const stamp of row_stamps.split(' ')) if (stamp !== '' && (latest === null || stamp > latest)) latest = stamp;
  }
  return latest;
}

/**
 * The fold's end as one statement: the clock, the vector entry, every capture dropped, capture
 * resumed, and the cached tables the write touched (for this process's caches after the commit).
 * `lead` is what a statement held back puts before it (the write's new rows' ops and states,
 * newRows.ts), and `p` numbers this statement's own parameters after that one's.
 */
const endFold = (lead: string, p: (n: number) => string) => `${lead} clock AS (UPDATE hub_origins SET last_seq = ${p(2)}, last_hlc = ${p(3)} WHERE origin = ${p(1)}),
  vector AS (INSERT INTO sync_vector (origin, seq) SELECT ${p(1)}::text, ${p(2)}::bigint WHERE ${p(4)}::boolean ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq),
  dropped AS (DELETE FROM sync_capture WHERE id > 0)
  SELECT set_config('${CAPTURE_PAUSED_SETTING}', 'off', true), current_setting('${NOTIFIED_SETTING}', true) AS notified`;
const END_FOLD = preparedOnHub(endFold('WITH', (n) => `$${n}`));
/** The same, led by the new rows' ops and states: the write's last statement before COMMIT carries them. */
const END_FOLD_WITH_NEW_ROWS = preparedOnHub(endFold(WITH_OPS_AND_STATES, (n) => `$${OPS_AND_STATES_PARAMS + n}`));

/** A fold's start and end on PostgreSQL: a round trip each, where the steps one by one were eight. */
export function postgresFold({ run, takeDeferred }: PostgresQuery, shared: SharedSyncState, conn: object, states: FoldRowStates): PostgresFold {
  return {
    async beginFold() {
      const rows = await run<CaptureRow & { instance_json: string; row_stamps: string | null }>(BEGIN_FOLD);
      states.known = null;
      if (rows.length === 0) return { captures: [], instance: null };
      const instance = JSON.parse(rows[0].instance_json) as SyncInstanceTable;
      shared.hubOrigin = instance.hub_origin;
      // As captures() answers: the key in the compact JSON SQLite writes, not json_agg's spacing.
      const captures = rows.map(({ id, tbl, pk, old_json, new_json }) => ({ id, tbl, pk: JSON.stringify(JSON.parse(pk)), old_json, new_json }));
      states.known = new Map(captures.map((c, i) => [`${c.tbl} ${c.pk}`, rows[i].row_stamps !== null]));
      states.folding = true;
      return { captures, instance, rowsStamp: latestStamp(rows) };
    },
    async endFold(origin, lastSeq, lastHlc, advanced) {
      states.known = null;
      states.folding = false;
      const own = [origin, lastSeq, lastHlc, advanced];
      const held = takeDeferred(INSERT_OPS_AND_STATES);
      const end = held ? run<{ notified: string | null }>(END_FOLD_WITH_NEW_ROWS, [...held.params, ...own]) : run<{ notified: string | null }>(END_FOLD, own);
      const [{ notified }] = await end.catch((error: unknown) => Promise.reject(held ? held.mapError(error) : error));
      noteTouchedTables(conn, notified);
    },
  };
}
