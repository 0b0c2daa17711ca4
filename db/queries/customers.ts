import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { CustomersTable, Database } from '../schema';
import { containsText } from './search';
import { fixedInsert } from './compiled';

const customerInsert = fixedInsert('customers');

export async function insertCustomerRow(db: Kysely<Database>, row: Insertable<CustomersTable>): Promise<void> {
  await customerInsert(db, [row]);
}

export async function findCustomer(db: Kysely<Database>, id: number): Promise<CustomersTable | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The customer's id when it exists and is not anonymised (a booking may link it). */
export async function findLinkableCustomerId(db: Kysely<Database>, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('customers').select('id').where('id', '=', id).where('anonymised_at', 'is', null).executeTakeFirst();
  return row?.id;
}

export async function updateCustomerRow(db: Kysely<Database>, id: number, changes: Updateable<CustomersTable>): Promise<void> {
  await db.updateTable('customers').set(changes).where('id', '=', id).execute();
}

export async function deleteCustomerRow(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('customers').where('id', '=', id).execute();
}

export interface CustomerFilter {
  /** Any name part, the full name, email, phone or mobile contains this text. */
  search?: string;
  limit: number;
  offset: number;
}

/** Customers that are not anonymised, by last name, first name and id. */
export async function searchCustomers(db: Kysely<Database>, filter: CustomerFilter): Promise<CustomersTable[]> {
  let query = db.selectFrom('customers').selectAll().where('anonymised_at', 'is', null);
  if (filter.search) {
    const text = filter.search.trim();
    query = query.where((eb) =>
      eb.or([
        containsText(sql<string>`coalesce(first_name, '') || ' ' || coalesce(middle_name, '') || ' ' || coalesce(last_name, '')`, text),
        containsText(sql<string>`coalesce(first_name, '') || ' ' || coalesce(last_name, '')`, text),
        ...['first_name', 'last_name', 'email', 'phone', 'mobile'].map((column) => containsText(column, text)),
      ]),
    );
  }
  return query.orderBy('last_name').orderBy('first_name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}
