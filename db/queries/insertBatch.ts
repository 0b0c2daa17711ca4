import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import type { Database } from '../schema';

/**
 * A run of plain inserts sent as one statement on the PostgreSQL hub, where every statement is a
 * round trip: a new booking's customer, booking, items, quantities and participants. Between
 * `openInsertBatch` and `flushInsertBatch` the inserts of `fixedInsert` (compiled.ts) on that
 * transaction's connection are kept instead of run; the flush chains them in one `WITH`, each insert
 * reading its rows from `json_populate_recordset(NULL::table, $n::json)` (so every value takes its
 * column's type) and waiting on a count of the one before (a one-time filter), so they run in the
 * order they were made and the sync captures, and so the ops, keep the write's order. Foreign keys
 * are checked at the statement's end, when every row is in. Only inserts may be made in the window:
 * a read of what it inserted must come after the flush (fixedQuery and fixedInsert outside the
 * window flush first). On SQLite nothing is kept: each insert runs as it comes, as before.
 */
interface Step {
  table: string;
  columns: string[];
  rows: readonly Record<string, unknown>[];
}

const batches = new WeakMap<Kysely<Database>, Step[]>();

/** Starts keeping `db`'s plain inserts (PostgreSQL only). */
export function openInsertBatch(db: Kysely<Database>): void {
  if (isPostgres(db)) batches.set(db, []);
}

/** Whether `db` has a batch open (a query about to run must flush it first). */
export const insertBatchOpen = (db: Kysely<Database>): boolean => batches.has(db);

/** Keeps an insert if a batch is open on `db`; false when the caller should run it now. */
export function keptInBatch(db: Kysely<Database>, table: string, columns: string[], rows: readonly Record<string, unknown>[]): boolean {
  const steps = batches.get(db);
  if (!steps) return false;
  steps.push({ table, columns, rows });
  return true;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Runs what the batch kept, in one statement, and closes it (a no-op when none is open). */
export async function flushInsertBatch(db: Kysely<Database>): Promise<void> {
  const steps = batches.get(db);
  if (!steps) return;
  batches.delete(db);
  if (steps.length === 0) return;
  const ctes = steps.map(({ table, columns }, i) => {
    const list = columns.map(quote).join(', ');
    const after = i === 0 ? '' : ` WHERE (SELECT count(*) FROM s${i}) >= 0`;
    return `s${i + 1} AS (INSERT INTO ${quote(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quote(table)}, $${i + 1}::json)${after} RETURNING 1)`;
  });
  const text = `WITH ${ctes.join(',\n')}\nSELECT count(*) FROM s${steps.length}`;
  await db.executeQuery(CompiledQuery.raw(text, steps.map((s) => JSON.stringify(s.rows.map((row) => Object.fromEntries(s.columns.map((c) => [c, row[c]])))))));
}
