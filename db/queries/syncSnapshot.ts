import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import { statesByName, type Tombstone } from './syncCompaction';

/**
 * A page of the tombstones of deleted rows after the one keyed `after` ([entity, entity_id]; null:
 * from the first), in key order: a snapshot carries them after the rows. By key, not offset, so a
 * tombstone compaction drops between pages cannot make the next page skip one.
 */
export async function tombstonesAfter(db: Kysely<Database>, limit: number, after: readonly [string, string] | null): Promise<Tombstone[]> {
  let query = db
    .selectFrom(statesByName(db))
    .select(['entity', 'entity_id', 'born', 'deleted', 'erased'])
    .where('deleted', 'is not', null)
    .where((eb) => eb.or([eb('born', 'is', null), eb('born', '<=', eb.ref('deleted'))]));
  if (after) query = query.where((eb) => eb(eb.refTuple('entity', 'entity_id'), '>', eb.tuple(after[0], after[1])));
  return (await query.orderBy('entity').orderBy('entity_id').limit(limit).execute()) as Tombstone[];
}
