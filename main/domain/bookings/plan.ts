import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { Database, ProductsTable } from '../../../db/schema';
import type { BookingFieldBody, ItemBody } from '../../contract/bookings';
import { DomainError } from '../errors';
import { toMinor } from '../money';
import { extraLineMinor, exclusiveTaxMinor, itemAmountMinor, taxLines, type Tax, type TaxLine } from './pricing';
import { findSession, refInstant } from '../availability/sessionRef';
import { fromIso, fromLocal, localDate } from '../time';
import { resolvePickup, type PickupChoice } from './pickup';
import { findBookableProduct, listExtrasOfferedWith, listPriceOptions, listSessionPriceOverrides } from '../../../db/queries/bookingCatalogue';
import { readItemRules, type ItemRuleRows } from '../../../db/queries/bookingRules';

export interface PlannedQuantity {
  optionId: number;
  label: string;
  priceMinor: number;
  priceGroupType: string | null;
  seatsUsed: number;
  value: number;
}

export interface PlannedExtra {
  extraId: number;
  name: string;
  description: string | null;
  extraPriceType: string;
  priceMinor: number;
  quantity: number;
}

export interface PlannedItem {
  index: number;
  product: ProductsTable;
  timezone: string;
  sessionId: number | null;
  sessionSeats: number | null;
  /** The seats the session's live bookings held when its rules were read in one statement (the hub); else read by the seat check. */
  sessionHeld?: number;
  startAt: number;
  endAt: number;
  allDay: boolean;
  quantities: PlannedQuantity[];
  extras: PlannedExtra[];
  totalQuantity: number;
  seatsHeld: number;
  amountMinor: number;
  amountOverridden: boolean;
  taxes: TaxLine[];
  subtotalMinor: number;
  participants: BookingFieldBody[][];
  pickup: PickupChoice | null;
  bookingFields: BookingFieldBody[];
}

/** One participant row per unit booked: an item holds at most this many (as many as it may name). */
export const MAX_QUANTITY_PER_ITEM = 1000;

const fail = (index: number, message: string, code: 'VALIDATION_ERROR' | 'BUSINESS_RULE' = 'VALIDATION_ERROR') => new DomainError(code, `items[${index}]: ${message}`);

/** The calendar date an item names, as local midnight (NO_DATE / DATE_ENQUIRY products). */
function dateOnly(item: ItemBody, timezone: string, now: number, index: number): { startAt: number; endAt: number } {
  let instant = now;
  try {
    if (item.startTimeLocal) instant = fromLocal(item.startTimeLocal.slice(0, 10), timezone, 'startTimeLocal');
    else if (item.startTime) instant = fromIso(item.startTime, 'startTime');
  } catch (error) {
    throw fail(index, (error as Error).message);
  }
  const startAt = fromLocal(localDate(instant, timezone), timezone);
  return { startAt, endAt: DateTime.fromMillis(startAt, { zone: timezone }).plus({ days: 1 }).toMillis() };
}

/** The instant an item names in a zone, or null where it names none that parses (refused later, in order). */
function instantOrNull(item: ItemBody, timezone: string): number | null {
  try {
    return item.startTime || item.startTimeLocal ? refInstant({ productCode: item.productCode, startTime: item.startTime, startTimeLocal: item.startTimeLocal }, timezone) : null;
  } catch {
    return null;
  }
}

/** An item's rule rows read in one statement (the PostgreSQL hub), with the instant its session was read at. */
interface PreRead {
  rows: ItemRuleRows;
  startAt: number | null;
}

/**
 * On the hub, every row the item's rules read, in one statement (db/queries/bookingRules.ts); on
 * SQLite nothing (each rule reads its own rows, in process). The session is read at the instant the
 * company's zone gives a local start: a product with a zone of its own that names its session by a
 * local time has it read again by placeItem. A start that does not parse is refused in order later.
 */
async function readRules(db: Kysely<Database>, item: ItemBody, companyTimezone: string, claim: boolean): Promise<PreRead | undefined> {
  const startAt = instantOrNull(item, companyTimezone);
  const rows = await readItemRules(db, item.productCode, startAt, claim);
  return rows && { rows, startAt };
}

/** Where an item sits in time: an INVENTORY product's session, or the calendar date of any other product. */
interface Placement {
  sessionId: number | null;
  sessionSeats: number | null;
  startAt: number;
  endAt: number;
}

async function placeItem(db: Kysely<Database>, item: ItemBody, product: ProductsTable, timezone: string, now: number, index: number, read: PreRead | undefined): Promise<Placement> {
  if (product.booking_mode !== 'INVENTORY') return { sessionId: null, sessionSeats: null, ...dateOnly(item, timezone, now, index) };
  if (!item.startTime && !item.startTimeLocal) throw fail(index, `product ${product.product_code} needs startTime or startTimeLocal of one of its sessions`);
  // The session read with the rules, when it was read at the instant the product's zone gives.
  if (read && read.startAt !== null && read.startAt === instantOrNull(item, timezone)) {
    const session = read.rows.session;
    if (!session) throw fail(index, `product ${product.product_code} has no session at ${item.startTimeLocal ?? item.startTime}`);
    return { sessionId: session.id, sessionSeats: session.seats, startAt: session.start_at, endAt: session.end_at };
  }
  const session = await findSession(db, { productCode: product.product_code, startTime: item.startTime, startTimeLocal: item.startTimeLocal }, timezone).catch((error: DomainError) => {
    if (error.code === 'NOT_FOUND') throw fail(index, `product ${product.product_code} has no session at ${item.startTimeLocal ?? item.startTime}`);
    throw fail(index, error.message);
  });
  return { sessionId: session.id, sessionSeats: session.seats, startAt: session.start_at, endAt: session.end_at };
}

/** The body's quantities resolved against the product's price options and the session's overrides of them. */
async function planQuantities(db: Kysely<Database>, item: ItemBody, product: ProductsTable, sessionId: number | null, index: number, read: PreRead | undefined): Promise<PlannedQuantity[]> {
  const options = read ? read.rows.options : await listPriceOptions(db, product.product_code);
  const overrides = sessionId === null ? [] : read && read.rows.session?.id === sessionId ? read.rows.overrides : await listSessionPriceOverrides(db, sessionId);
  const quantities: PlannedQuantity[] = [];
  (item.quantities ?? []).forEach((q, qi) => {
    const where = `quantities[${qi}]`;
    let option = q.optionId !== undefined ? options.find((o) => o.id === q.optionId) : undefined;
    if (q.optionId !== undefined && !option) throw fail(index, `${where}: product ${product.product_code} has no price option with id ${q.optionId}`);
    if (!option && q.optionLabel) {
      option = options.find((o) => o.label.toLowerCase() === q.optionLabel!.trim().toLowerCase());
      if (!option) throw fail(index, `${where}: product ${product.product_code} has no price option "${q.optionLabel}"`);
    }
    if (!option && options.length === 1) option = options[0];
    if (!option) throw fail(index, `${where}: name the price option with optionId or optionLabel (product ${product.product_code} has ${options.length})`);
    if (q.value === 0) return;
    if (quantities.some((p) => p.optionId === option!.id)) throw fail(index, `${where}: price option "${option.label}" is given twice`);
    const override = overrides.find((o) => o.price_option_id === option!.id);
    const minQuantity = override?.min_quantity ?? option.min_quantity;
    const maxQuantity = override?.max_quantity ?? option.max_quantity;
    if (minQuantity !== null && q.value < minQuantity) throw fail(index, `${where}: "${option.label}" needs at least ${minQuantity}`, 'BUSINESS_RULE');
    if (maxQuantity !== null && q.value > maxQuantity) throw fail(index, `${where}: "${option.label}" allows at most ${maxQuantity}`, 'BUSINESS_RULE');
    quantities.push({
      optionId: option.id,
      label: option.label,
      priceMinor: override?.price_minor ?? option.price_minor,
      priceGroupType: override?.price_group_type ?? option.price_group_type,
      seatsUsed: override?.seats_used ?? option.seats_used,
      value: q.value,
    });
  });
  return quantities;
}

/** The product's limits on the item's total quantity. */
function checkTotalQuantity(product: ProductsTable, totalQuantity: number, index: number): void {
  // Checked before anything is sized by it: a quantity of 10^9 would allocate a participant per unit.
  if (totalQuantity > MAX_QUANTITY_PER_ITEM) throw fail(index, `a total quantity of ${totalQuantity} is more than the ${MAX_QUANTITY_PER_ITEM} one item can hold`);
  if (product.quantity_required !== 0 && totalQuantity === 0) throw fail(index, `product ${product.product_code} needs a quantity above 0`, 'BUSINESS_RULE');
  if (product.quantity_required_min !== null && totalQuantity < product.quantity_required_min) {
    throw fail(index, `product ${product.product_code} needs at least ${product.quantity_required_min} in total (got ${totalQuantity})`, 'BUSINESS_RULE');
  }
  if (product.quantity_required_max !== null && totalQuantity > product.quantity_required_max) {
    throw fail(index, `product ${product.product_code} allows at most ${product.quantity_required_max} in total (got ${totalQuantity})`, 'BUSINESS_RULE');
  }
}

/** A session must not have started and must leave the product's minimum notice. */
function checkNotice(product: ProductsTable, startAt: number, now: number, index: number): void {
  const noticeMs = (product.minimum_notice_minutes ?? 0) * 60_000;
  if (startAt < now) throw fail(index, `the session of ${product.product_code} has already started`, 'BUSINESS_RULE');
  if (startAt - now < noticeMs) throw fail(index, `product ${product.product_code} must be booked at least ${product.minimum_notice_minutes} minutes before it starts`, 'BUSINESS_RULE');
}

/** The body's extras, each one the product offers, in the product's currency. */
async function planExtras(db: Kysely<Database>, item: ItemBody, product: ProductsTable, totalQuantity: number, index: number, read: PreRead | undefined): Promise<PlannedExtra[]> {
  const offered = read ? read.rows.extras : await listExtrasOfferedWith(db, product.product_code);
  return (item.extras ?? []).map((e, ei) => {
    const extra = offered.find((o) => o.id === e.id);
    if (!extra) throw fail(index, `extras[${ei}]: extra ${e.id} is not offered with product ${product.product_code}`);
    if (extra.currency !== product.currency) throw fail(index, `extras[${ei}]: extra ${e.id} is priced in ${extra.currency}, the product in ${product.currency}`);
    const quantity = extra.extra_price_type === 'FIXED' ? 1 : (e.quantity ?? (extra.extra_price_type === 'ANY' ? totalQuantity : 1));
    if (extra.extra_price_type === 'QUANTITY' && quantity < 1) throw fail(index, `extras[${ei}]: extra "${extra.name}" needs a quantity of at least 1`);
    if (quantity > MAX_QUANTITY_PER_ITEM) throw fail(index, `extras[${ei}]: a quantity of ${quantity} is more than the ${MAX_QUANTITY_PER_ITEM} one item can hold`);
    return { extraId: extra.id, name: extra.name, description: extra.description, extraPriceType: extra.extra_price_type, priceMinor: extra.price_minor, quantity };
  });
}

/** The item's amount (the body's override or the options' sum), its taxes and its subtotal. */
function priceItem(item: ItemBody, product: ProductsTable, quantities: PlannedQuantity[], extras: PlannedExtra[], taxes: Tax[], index: number) {
  const currencyMinor = (amount: number) => toMinor(amount, product.currency);
  const amountOverridden = item.amount !== undefined;
  const amountMinor = amountOverridden ? currencyMinor(item.amount!) : itemAmountMinor(quantities);
  const extrasMinor = extras.reduce((sum, e) => sum + extraLineMinor(e), 0);
  const taxLinesOfItem = taxLines(amountMinor + extrasMinor, taxes, currencyMinor);
  const subtotalMinor = amountMinor + extrasMinor + exclusiveTaxMinor(taxLinesOfItem);
  // Beyond 2^53 sums lose cents silently, and past 2^63 SQLite refuses the row (a 500): refuse it here.
  if (!Number.isSafeInteger(subtotalMinor)) throw fail(index, `the item's total of ${subtotalMinor} minor units is too large`);
  return { amountMinor, amountOverridden, taxes: taxLinesOfItem, subtotalMinor };
}

/** One participant per unit booked, with the fields the body gives for the first ones. */
function participantsOf(item: ItemBody, totalQuantity: number, index: number): BookingFieldBody[][] {
  const given = item.participants ?? [];
  if (given.length > totalQuantity) throw fail(index, `${given.length} participants given for a total quantity of ${totalQuantity}`);
  return Array.from({ length: totalQuantity }, (_, i) => given[i]?.fields ?? []);
}

/**
 * Resolves one body item against the catalogue and sessions and prices it. Reads only: the
 * caller runs it inside the booking's transaction, so what it sees is what gets written.
 */
/** `claim`: the session read with the rules is claimed (a create on the hub; a quote claims nothing). */
export async function planItem(db: Kysely<Database>, item: ItemBody, index: number, companyTimezone: string, now: number, claim: boolean): Promise<PlannedItem> {
  const read = await readRules(db, item, companyTimezone, claim);
  const product = read ? read.rows.product : await findBookableProduct(db, item.productCode);
  if (!product) throw fail(index, `there is no product ${item.productCode}`);
  const timezone = product.timezone ?? companyTimezone;
  const inventory = product.booking_mode === 'INVENTORY';
  const { sessionId, sessionSeats, startAt, endAt } = await placeItem(db, item, product, timezone, now, index, read);
  const quantities = await planQuantities(db, item, product, sessionId, index, read);
  const totalQuantity = quantities.reduce((sum, q) => sum + q.value, 0);
  checkTotalQuantity(product, totalQuantity, index);
  if (inventory) checkNotice(product, startAt, now, index);
  const extras = await planExtras(db, item, product, totalQuantity, index, read);
  const details = JSON.parse(product.details_json) as { taxes?: Tax[]; bookingFields?: BookingFieldBody[] };
  const { amountMinor, amountOverridden, taxes, subtotalMinor } = priceItem(item, product, quantities, extras, details.taxes ?? [], index);
  const participants = participantsOf(item, totalQuantity, index);
  const pickup = await resolvePickup(db, product, item.pickupLocation?.locationName, startAt, timezone);
  return {
    index,
    product,
    timezone,
    sessionId,
    sessionSeats,
    sessionHeld: read && sessionId !== null && read.rows.session?.id === sessionId ? read.rows.held : undefined,
    startAt,
    endAt,
    allDay: !inventory,
    quantities,
    extras,
    totalQuantity,
    seatsHeld: inventory ? quantities.reduce((sum, q) => sum + q.value * q.seatsUsed, 0) : 0,
    amountMinor,
    amountOverridden,
    taxes,
    subtotalMinor,
    participants,
    pickup,
    bookingFields: details.bookingFields ?? [],
  };
}
