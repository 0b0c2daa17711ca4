import type { Insertable, Kysely } from 'kysely';
import type { Database, OpLogTable } from '../schema';
import { fixedInsert } from './compiled';

const journalInsert = fixedInsert('op_log');

/**
 * Appends one entry to this instance's request journal (the op_log table: who did what, when),
 * inside the caller's write transaction (every write does: compiled once). Local only: sync's ops
 * are made from the rows a write changed, not from this journal.
 */
export async function appendJournal(tx: Kysely<Database>, entry: Omit<Insertable<OpLogTable>, 'seq'>): Promise<void> {
  await journalInsert(tx, [entry]);
}
