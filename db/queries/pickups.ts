import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, PickupListsTable, PickupLocationsTable } from '../schema';
import { containsText } from './search';

type Db = Kysely<Database>;

export async function findPickupList(db: Db, listId: number): Promise<PickupListsTable | undefined> {
  return db.selectFrom('pickup_lists').selectAll().where('id', '=', listId).executeTakeFirst();
}

export async function pickupListExists(db: Db, listId: number): Promise<boolean> {
  const list = await db.selectFrom('pickup_lists').select('id').where('id', '=', listId).executeTakeFirst();
  return list !== undefined;
}

/** The lists' locations, by list, each list's in position order. */
export async function findLocationsOfPickupLists(db: Db, listIds: number[]): Promise<PickupLocationsTable[]> {
  return db.selectFrom('pickup_locations').selectAll().where('pickup_list_id', 'in', listIds).orderBy('pickup_list_id').orderBy('position').execute();
}

/** The product's pickup list, or undefined when it has none (or there is no such product). */
export async function findPickupListOfProduct(db: Db, productCode: string): Promise<PickupListsTable | undefined> {
  return db
    .selectFrom('products')
    .innerJoin('pickup_lists', 'pickup_lists.id', 'products.pickup_id')
    .selectAll('pickup_lists')
    .where('products.product_code', '=', productCode)
    .executeTakeFirst();
}

export interface PickupListFilter {
  /** Matches the list's name. */
  text?: string;
  limit: number;
  offset: number;
}

/** Pickup lists by name, then id. */
export async function searchPickupLists(db: Db, filter: PickupListFilter): Promise<PickupListsTable[]> {
  let query = db.selectFrom('pickup_lists').selectAll();
  if (filter.text) query = query.where(containsText('name', filter.text));
  return query.orderBy('name').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
}

export async function insertPickupList(db: Db, row: Insertable<PickupListsTable>): Promise<void> {
  await db.insertInto('pickup_lists').values(row).execute();
}

export async function updatePickupList(db: Db, listId: number, values: Updateable<PickupListsTable>): Promise<void> {
  await db.updateTable('pickup_lists').set(values).where('id', '=', listId).execute();
}

/** The list holds exactly these locations (rows carry their own ids and positions). */
export async function replacePickupLocations(db: Db, listId: number, locations: Insertable<PickupLocationsTable>[]): Promise<void> {
  await db.deleteFrom('pickup_locations').where('pickup_list_id', '=', listId).execute();
  for (const location of locations) await db.insertInto('pickup_locations').values(location).execute();
}

/** Products, archived ones included, that use the list. */
export async function findProductsUsingPickupList(db: Db, listId: number): Promise<{ product_code: string; deleted_at: number | null }[]> {
  return db.selectFrom('products').select(['product_code', 'deleted_at']).where('pickup_id', '=', listId).execute();
}

export async function detachPickupListFromProducts(db: Db, listId: number): Promise<void> {
  await db.updateTable('products').set({ pickup_id: null }).where('pickup_id', '=', listId).execute();
}

export async function deletePickupList(db: Db, listId: number): Promise<void> {
  await db.deleteFrom('pickup_lists').where('id', '=', listId).execute();
}
