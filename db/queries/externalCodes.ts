import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, ExternalCodesTable } from '../schema';

type Db = Kysely<Database>;

/** SQLite's bound-parameter limit: long lists go in chunks. */
const CHUNK = 500;

/** How many codes the product has, and how many are not yet assigned. */
export async function countExternalCodes(db: Db, productCode: string): Promise<{ total: number; available: number }> {
  const row = await db
    .selectFrom('external_codes')
    .select([sql<number>`count(*)`.as('total'), sql<number>`count(*) filter (where assigned_to is null)`.as('available')])
    .where('product_code', '=', productCode)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), available: Number(row.available) };
}

/** Which of these codes are already stored (for any product). */
export async function findKnownExternalCodes(db: Db, codes: string[]): Promise<string[]> {
  const known: string[] = [];
  for (let i = 0; i < codes.length; i += CHUNK) {
    const rows = await db.selectFrom('external_codes').select('code').where('code', 'in', codes.slice(i, i + CHUNK)).execute();
    for (const row of rows) known.push(row.code);
  }
  return known;
}

export async function insertExternalCodes(db: Db, rows: Insertable<ExternalCodesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('external_codes').values(rows.slice(i, i + CHUNK)).execute();
}
