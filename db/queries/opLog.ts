import type { Kysely } from 'kysely';
import type { Database, OpLogTable } from '../schema';
import type { Insertable } from 'kysely';

/** Appends one operation to the op log, inside the caller's write transaction. */
export async function appendOp(tx: Kysely<Database>, op: Omit<Insertable<OpLogTable>, 'seq'>): Promise<void> {
  await tx.insertInto('op_log').values(op).execute();
}
