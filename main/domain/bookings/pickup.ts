import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database, ProductsTable } from '../../../db/schema';
import { LOCAL_FORMAT } from '../time';
import { choosePickupLocation, loadProductPickupList, type PickupLocation } from '../catalogue/pickups';

/** What a booking item stores in pickup_json and answers as pickupLocation. */
export interface PickupChoice extends PickupLocation {
  pickupInstructions?: string;
  pickupTime?: string;
}

/**
 * A location of the product's pickup list (matched by name, any case), or free text when the list
 * has otherLocationInstructions; otherwise the name is ignored (as the spec says): the pickups
 * module's choosePickupLocation decides. pickupTime is start − minutesPrior in local time;
 * pickupInstructions joins the list's additionalNotes and the location's additionalInstructions
 * (or the list's otherLocationInstructions for free text).
 */
export async function resolvePickup(db: Kysely<Database>, product: ProductsTable, locationName: string | undefined, startAt: number, timezone: string): Promise<PickupChoice | null> {
  if (product.pickup_id === null) return null;
  const list = await loadProductPickupList(db, product.product_code);
  const location = choosePickupLocation(list, locationName);
  if (!list || !location) return null;
  const join = (...parts: (string | null | undefined)[]) => parts.filter((p) => p && p.trim()).join('\n') || undefined;
  const listed = list.pickupLocations.includes(location);
  const choice: PickupChoice = { ...location };
  const instructions = listed ? join(list.additionalNotes, location.additionalInstructions) : join(list.additionalNotes, list.otherLocationInstructions);
  if (instructions) choice.pickupInstructions = instructions;
  if (location.minutesPrior !== undefined) {
    choice.pickupTime = DateTime.fromMillis(startAt - location.minutesPrior * 60_000, { zone: timezone }).toFormat(LOCAL_FORMAT);
  }
  return choice;
}
