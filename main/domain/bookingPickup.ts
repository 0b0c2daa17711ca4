import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database, ProductsTable } from '../../db/schema';
import { LOCAL_FORMAT } from './time';

/** What a booking item stores in pickup_json and answers as pickupLocation. */
export interface PickupChoice {
  locationName: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  minutesPrior?: number;
  additionalInstructions?: string;
  pickupInstructions?: string;
  pickupTime?: string;
}

/**
 * A location of the product's pickup list (matched by name, any case), or free text when the list
 * has otherLocationInstructions; otherwise the name is ignored (as the spec says). pickupTime is
 * start − minutesPrior in local time; pickupInstructions joins the list's additionalNotes and the
 * location's additionalInstructions (or the list's otherLocationInstructions for free text).
 */
export async function resolvePickup(db: Kysely<Database>, product: ProductsTable, locationName: string | undefined, startAt: number, timezone: string): Promise<PickupChoice | null> {
  const name = locationName?.trim();
  if (!name || product.pickup_id === null) return null;
  const list = await db.selectFrom('pickup_lists').selectAll().where('id', '=', product.pickup_id).executeTakeFirst();
  if (!list) return null;
  const location = await db
    .selectFrom('pickup_locations')
    .selectAll()
    .where('pickup_list_id', '=', list.id)
    .where((eb) => eb(eb.fn('lower', ['location_name']), '=', name.toLowerCase()))
    .orderBy('position')
    .executeTakeFirst();
  const join = (...parts: (string | null | undefined)[]) => parts.filter((p) => p && p.trim()).join('\n') || undefined;
  if (!location) {
    if (!list.other_location_instructions) return null;
    return { locationName: name, pickupInstructions: join(list.additional_notes, list.other_location_instructions) };
  }
  const choice: PickupChoice = { locationName: location.location_name };
  if (location.address !== null) choice.address = location.address;
  if (location.latitude !== null) choice.latitude = location.latitude;
  if (location.longitude !== null) choice.longitude = location.longitude;
  if (location.additional_instructions !== null) choice.additionalInstructions = location.additional_instructions;
  const instructions = join(list.additional_notes, location.additional_instructions);
  if (instructions) choice.pickupInstructions = instructions;
  if (location.minutes_prior !== null) {
    choice.minutesPrior = location.minutes_prior;
    choice.pickupTime = DateTime.fromMillis(startAt - location.minutes_prior * 60_000, { zone: timezone }).toFormat(LOCAL_FORMAT);
  }
  return choice;
}
