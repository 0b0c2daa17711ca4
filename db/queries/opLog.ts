import type { Kysely } from 'kysely';
import type { Database, OpLogTable } from '../schema';
import type { Insertable } from 'kysely';
import { fixedInsert } from './compiled';

const opInsert = fixedInsert('op_log');

/** Appends one operation to the op log, inside the caller's write transaction (every write does: compiled once). */
export async function appendOp(tx: Kysely<Database>, op: Omit<Insertable<OpLogTable>, 'seq'>): Promise<void> {
  await opInsert(tx, [op]);
}
