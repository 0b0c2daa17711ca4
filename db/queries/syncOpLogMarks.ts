import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/*
 * What tells the op log's size gauge (main/sync/status.ts) whether its last measure still stands,
 * cheaply: both answer from an index, however large the log. Both dialects.
 */

/** The last op's arrival (ops are only ever appended, in arrival order) and the sum of the compaction floors (it grows with each compaction that removed ops, in any process). */
export async function opLogMarks(db: Kysely<Database>): Promise<{ lastArrival: number; compacted: number }> {
  const last = await db.selectFrom('sync_ops').select((eb) => eb.fn.max('arrival').as('a')).executeTakeFirst();
  const floors = await db.selectFrom('sync_compacted').select((eb) => eb.fn.sum<number | string | null>('seq').as('s')).executeTakeFirst();
  return { lastArrival: Number(last?.a ?? 0), compacted: Number(floors?.s ?? 0) };
}

/** How many ops arrived after `arrival`. */
export async function opsArrivedAfter(db: Kysely<Database>, arrival: number): Promise<number> {
  const row = await db.selectFrom('sync_ops').select((eb) => eb.fn.countAll<number | string>().as('n')).where('arrival', '>', arrival).executeTakeFirstOrThrow();
  return Number(row.n);
}
