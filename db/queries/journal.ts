import type { Insertable, Kysely } from 'kysely';
import type { Database, OpLogTable } from '../schema';
import { fixedInsert } from './compiled';

const journalInsert = fixedInsert('op_log');

export type JournalEntry = Omit<Insertable<OpLogTable>, 'seq'>;

/**
 * Appends a write's entries to this instance's request journal (the op_log table: who did what,
 * when), in the order given, inside the caller's write transaction, in one statement (compiled once
 * per number of entries). Local only: sync's ops are made from the rows a write changed, not from
 * this journal.
 */
export async function appendJournal(tx: Kysely<Database>, entries: readonly JournalEntry[]): Promise<void> {
  await journalInsert(tx, entries);
}
