import type { Kysely } from 'kysely';
import type { Database, PickupListsTable, PickupLocationsTable } from '../../../db/schema';
import type { PickupListAnswer, PickupListBody, PickupLocationAnswer, PickupSearch } from '../../contract/pickups';
import {
  deletePickupList,
  detachPickupListFromProducts,
  findLocationsOfPickupLists,
  findPickupList,
  findPickupListOfProduct,
  findProductsUsingPickupList,
  insertPickupList,
  replacePickupLocations,
  searchPickupLists,
  updatePickupList,
} from '../../../db/queries/pickups';
import type { Actor, EngineContext, Tx } from '../context';
import type { ProductsService } from './products';
import { DomainError, notFound } from '../errors';

export type PickupLocation = PickupLocationAnswer;
export type PickupList = PickupListAnswer;

function locationToApi(row: PickupLocationsTable): PickupLocation {
  const location: PickupLocation = { locationName: row.location_name };
  if (row.address !== null) location.address = row.address;
  if (row.latitude !== null) location.latitude = row.latitude;
  if (row.longitude !== null) location.longitude = row.longitude;
  if (row.minutes_prior !== null) location.minutesPrior = row.minutes_prior;
  if (row.additional_instructions !== null) location.additionalInstructions = row.additional_instructions;
  return location;
}

async function listsToApi(db: Kysely<Database>, rows: PickupListsTable[]): Promise<PickupList[]> {
  if (rows.length === 0) return [];
  const locations = await findLocationsOfPickupLists(db, rows.map((r) => r.id));
  return rows.map((row) => {
    const list: PickupList = { id: row.id, name: row.name, pickupLocations: [] };
    if (row.additional_notes !== null) list.additionalNotes = row.additional_notes;
    if (row.other_location_instructions !== null) list.otherLocationInstructions = row.other_location_instructions;
    list.pickupLocations = locations.filter((l) => l.pickup_list_id === row.id).map(locationToApi);
    return list;
  });
}

/**
 * A product's pickup list with its locations in order, or null when the product has none.
 * Takes any Kysely (a transaction's too), so booking code can resolve a chosen pickup inside its
 * own write. Does not check that the product exists.
 */
export async function loadProductPickupList(db: Kysely<Database>, productCode: string): Promise<PickupList | null> {
  const row = await findPickupListOfProduct(db, productCode);
  return row ? (await listsToApi(db, [row]))[0] : null;
}

export function createPickups(ctx: EngineContext, products: ProductsService) {
  async function rowOrThrow(db: Kysely<Database>, listId: number): Promise<PickupListsTable> {
    const row = await findPickupList(db, listId);
    if (!row) throw notFound('Pickup list', listId);
    return row;
  }

  async function writeLocations(tx: Tx, listId: number, locations: PickupListBody['pickupLocations']): Promise<void> {
    const rows = (locations ?? []).map((l, position) => ({
      id: ctx.ids.nextId(),
      pickup_list_id: listId,
      position,
      location_name: l.locationName,
      address: l.address ?? null,
      latitude: l.latitude ?? null,
      longitude: l.longitude ?? null,
      minutes_prior: l.minutesPrior ?? null,
      additional_instructions: l.additionalInstructions ?? null,
    }));
    await replacePickupLocations(tx.db, listId, rows);
  }

  const service = {
    async get(listId: number): Promise<PickupList> {
      return (await listsToApi(ctx.db, [await rowOrThrow(ctx.db, listId)]))[0];
    },

    async search(query: PickupSearch): Promise<PickupList[]> {
      const rows = await searchPickupLists(ctx.db, { text: query.searchString, limit: query.limit, offset: query.offset });
      return listsToApi(ctx.db, rows);
    },

    async create(input: PickupListBody & { name: string }, actor: Actor): Promise<PickupList> {
      const id = await ctx.write(actor, async (tx) => {
        const id = ctx.ids.nextId();
        await insertPickupList(tx.db, {
          id,
          name: input.name,
          additional_notes: input.additionalNotes ?? null,
          other_location_instructions: input.otherLocationInstructions ?? null,
          created_at: tx.now,
          updated_at: tx.now,
        });
        await writeLocations(tx, id, input.pickupLocations);
        await tx.journal('pickupList', id, 'create', input);
        return id;
      });
      return service.get(id);
    },

    /** A complete replacement: notes and locations not sent are removed; a missing name keeps the old one. */
    async replace(listId: number, input: PickupListBody, actor: Actor): Promise<PickupList> {
      await ctx.write(actor, async (tx) => {
        const row = await rowOrThrow(tx.db, listId);
        await updatePickupList(tx.db, listId, {
          name: input.name ?? row.name,
          additional_notes: input.additionalNotes ?? null,
          other_location_instructions: input.otherLocationInstructions ?? null,
          updated_at: tx.now,
        });
        await writeLocations(tx, listId, input.pickupLocations);
        await tx.journal('pickupList', listId, 'replace', input);
      });
      return service.get(listId);
    },

    /** Refused while a live product uses the list; archived products simply lose it. */
    async remove(listId: number, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, listId);
        const users = await findProductsUsingPickupList(tx.db, listId);
        const live = users.filter((u) => u.deleted_at === null).map((u) => u.product_code);
        if (live.length) throw new DomainError('IN_USE', `Pickup list ${listId} is used by product(s) ${live.join(', ')}; detach it from them first`);
        if (users.length) await detachPickupListFromProducts(tx.db, listId);
        await deletePickupList(tx.db, listId);
        await tx.journal('pickupList', listId, 'delete', {});
      });
    },

    /** The product's list (404 for an unknown product; null when it has no pickups). */
    async forProduct(productCode: string): Promise<PickupList | null> {
      await products.rowOrThrow(ctx.db, productCode);
      return loadProductPickupList(ctx.db, productCode);
    },
  };
  return service;
}

export type PickupsService = ReturnType<typeof createPickups>;

/**
 * The spec's rule for a booking item's pickupLocation.locationName: a name from the product's list
 * (matched ignoring case and surrounding spaces) gives that location; another name is kept as free
 * text only when the list sets otherLocationInstructions; otherwise, and when the product has no
 * pickups, the choice is ignored (null).
 */
export function choosePickupLocation(list: PickupList | null, locationName: string | null | undefined): PickupLocation | null {
  const wanted = locationName?.trim();
  if (!list || !wanted) return null;
  const match = list.pickupLocations.find((l) => l.locationName.trim().toLowerCase() === wanted.toLowerCase());
  if (match) return match;
  return list.otherLocationInstructions ? { locationName: wanted } : null;
}
