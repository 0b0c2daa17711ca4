import { sql, type Kysely } from 'kysely';

/**
 * A smaller op log row (issue 16, the catch-up bench: the op log was about two thirds of the bytes a
 * desk wrote per op, and SQLite's cost follows the bytes).
 * - `sync_ops.change_shape`: when set, `change_json` is a JSON array of the change's values, in the
 *   order of that sync_shapes entry's columns, instead of an object naming each column again in every
 *   op. NULL: the object form, as every op stored before this (still read as it is). Bookings' ops
 *   keep the object form: erasure reads their `customer_id` in SQL (db/queries/syncLog.ts).
 * - `sync_ops.hlc` of an op stamped by its own origin (every op: a stamp names the op's origin) is
 *   stored without that origin, which `origin` holds already; the store puts it back when it reads.
 *   Existing ops are shortened here.
 * PostgreSQL (`postgres` below) gets the column, so the two schemas stay one; its store keeps writing
 * the object form and whole stamps, which both stores read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_ops ADD COLUMN change_shape INTEGER').execute(db);
  await sql.raw("UPDATE sync_ops SET hlc = substr(hlc, 1, 22) WHERE length(hlc) = 23 + length(origin) AND substr(hlc, 23) = '-' || origin").execute(db);
}

export async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE sync_ops ADD COLUMN change_shape BIGINT').execute(db);
}
