import type { Kysely } from 'kysely';
import type { CustomersTable, Database } from '../../../db/schema';
import { deleteCustomerRow, findCustomer, insertCustomerRow, searchCustomers, updateCustomerRow, type CustomerFilter } from '../../../db/queries/customers';
import { customerHasBookings } from '../../../db/queries/bookings';
import type { Customer, CustomerBody } from '../../contract/customers';
import type { Actor, EngineContext, Tx } from '../context';
import { DomainError } from '../errors';

type Kind = 'str' | 'bool';
/** API field ↔ column (typed by both the body and the answer); `name` is derived from the name parts, never stored. */
const FIELDS: [keyof CustomerBody & keyof Customer & string, keyof CustomersTable & string, Kind][] = [
  ['firstName', 'first_name', 'str'],
  ['middleName', 'middle_name', 'str'],
  ['lastName', 'last_name', 'str'],
  ['title', 'title', 'str'],
  ['gender', 'gender', 'str'],
  ['dob', 'dob', 'str'],
  ['email', 'email', 'str'],
  ['phone', 'phone', 'str'],
  ['mobile', 'mobile', 'str'],
  ['fax', 'fax', 'str'],
  ['messengerAlias', 'messenger_alias', 'str'],
  ['companyName', 'company_name', 'str'],
  ['addressLine', 'address_line', 'str'],
  ['addressLine2', 'address_line2', 'str'],
  ['city', 'city', 'str'],
  ['state', 'state', 'str'],
  ['postCode', 'post_code', 'str'],
  ['countryCode', 'country_code', 'str'],
  ['preferredLanguage', 'preferred_language', 'str'],
  ['aboutUs', 'about_us', 'str'],
  ['marketing', 'marketing', 'bool'],
  ['newsletter', 'newsletter', 'bool'],
];

export type { Customer } from '../../contract/customers';
export type CustomerSearch = CustomerFilter;

export function customerToApi(row: CustomersTable): Customer {
  const customer: Customer = { id: row.id, name: [row.first_name, row.middle_name, row.last_name].filter((p) => p && p.trim()).join(' ') };
  for (const [field, column, kind] of FIELDS) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    (customer as Record<string, unknown>)[field] = kind === 'bool' ? value === 1 : value;
  }
  if (row.anonymised_at !== null) customer.anonymised = true;
  return customer;
}

/** Every personal column from a body: fields left out are NULL (a customer body is complete). */
export function customerColumns(input: CustomerBody): Omit<CustomersTable, 'id' | 'anonymised_at' | 'created_at' | 'updated_at'> {
  const values: Record<string, unknown> = {};
  for (const [field, column, kind] of FIELDS) {
    const value = input[field];
    values[column] = value === undefined ? null : kind === 'bool' ? (value ? 1 : 0) : field === 'countryCode' || field === 'preferredLanguage' ? String(value).toUpperCase() : value;
  }
  if (input.preferredLanguage !== undefined) values.preferred_language = input.preferredLanguage.toLowerCase();
  // A client that sends only `name` still gets a searchable customer.
  if (input.firstName === undefined && input.lastName === undefined && input.name) {
    const parts = input.name.trim().split(/\s+/);
    values.last_name = parts.length > 1 ? parts.pop() : null;
    values.first_name = parts.join(' ');
  }
  return values as Omit<CustomersTable, 'id' | 'anonymised_at' | 'created_at' | 'updated_at'>;
}

export const hasCustomerData = (input: CustomerBody | undefined): input is CustomerBody =>
  !!input && Object.entries(input).some(([key, value]) => key !== 'id' && value !== undefined && value !== '');

/** Inserts a customer inside the caller's transaction. */
export async function insertCustomer(tx: Tx, input: CustomerBody, newId: () => number): Promise<number> {
  const id = newId();
  await insertCustomerRow(tx.db, { id, ...customerColumns(input), anonymised_at: null, created_at: tx.now, updated_at: tx.now });
  await tx.journal('customer', id, 'create', input);
  return id;
}

export function createCustomers(ctx: EngineContext) {
  async function rowOrThrow(db: Kysely<Database>, id: number): Promise<CustomersTable> {
    const row = await findCustomer(db, id);
    if (!row) throw new DomainError('NOT_FOUND', `Customer ${id} was not found`);
    return row;
  }

  const service = {
    async get(id: number): Promise<Customer> {
      return customerToApi(await rowOrThrow(ctx.db, id));
    },

    async create(input: CustomerBody, actor: Actor): Promise<Customer> {
      if (!hasCustomerData(input)) throw new DomainError('VALIDATION_ERROR', 'A customer needs at least one field (e.g. firstName, lastName or email)');
      const id = await ctx.write(actor, (tx) => insertCustomer(tx, input, ctx.ids.nextId));
      return service.get(id);
    },

    /** Name (any part or the full name), email or phone; anonymised customers are not found. */
    async search(query: CustomerSearch): Promise<Customer[]> {
      return (await searchCustomers(ctx.db, query)).map(customerToApi);
    },

    /**
     * A customer without bookings is deleted; one with bookings is anonymised instead (personal
     * fields blanked, anonymised_at set) so the bookings, manifests and totals stay intact.
     */
    async remove(id: number, actor: Actor): Promise<{ anonymised: boolean }> {
      return ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, id);
        if (!(await customerHasBookings(tx.db, id))) {
          await deleteCustomerRow(tx.db, id);
          await tx.journal('customer', id, 'delete', {});
          return { anonymised: false };
        }
        await updateCustomerRow(tx.db, id, { ...customerColumns({}), anonymised_at: tx.now, updated_at: tx.now });
        await tx.journal('customer', id, 'anonymise', {});
        return { anonymised: true };
      });
    },

    rowOrThrow,
  };
  return service;
}

export type CustomersService = ReturnType<typeof createCustomers>;
