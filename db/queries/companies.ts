import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CompaniesTable, Database } from '../schema';

type Db = Kysely<Database>;

/** The first company created: the supplier this data folder runs for. */
export async function findFirstCompany(db: Db): Promise<CompaniesTable | undefined> {
  return db.selectFrom('companies').selectAll().orderBy('id').limit(1).executeTakeFirst();
}

export async function findCompanyByAlias(db: Db, alias: string): Promise<CompaniesTable | undefined> {
  return db.selectFrom('companies').selectAll().where('alias', '=', alias).executeTakeFirst();
}

export async function insertCompany(db: Db, row: Insertable<CompaniesTable>): Promise<void> {
  await db.insertInto('companies').values(row).execute();
}

export async function updateCompany(db: Db, companyId: number, values: Updateable<CompaniesTable>): Promise<void> {
  await db.updateTable('companies').set(values).where('id', '=', companyId).execute();
}
