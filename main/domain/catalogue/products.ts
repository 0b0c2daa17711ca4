import type { Kysely } from 'kysely';
import { containsText } from '../../../db/queries/search';
import type { Database, ProductsTable, PriceOptionsTable } from '../../../db/schema';
import type { ProductBody, ProductUpdateBody, PriceOptionBody } from '../../contract/products';
import type { Actor, EngineContext, Tx } from '../context';
import type { CompaniesService } from '../platform/companies';
import { DomainError } from '../errors';
import { fromMinor, toMinor } from '../money';
import { isValidTimezone, toIso } from '../time';
import { LIVE_STATUSES } from '../statuses';
import { imageToApi } from './productImages';
import { fixedQuery } from '../../../db/queries/compiled';


type Kind = 'str' | 'int' | 'bool' | 'float' | 'money';
/** API field ↔ column for the flat product fields; everything nested lives in details_json. */
const FLAT: [keyof ProductBody & string, keyof ProductsTable & string, Kind][] = [
  ['name', 'name', 'str'],
  ['internalCode', 'internal_code', 'str'],
  ['productType', 'product_type', 'str'],
  ['shortDescription', 'short_description', 'str'],
  ['description', 'description', 'str'],
  ['additionalInformation', 'additional_information', 'str'],
  ['generalTerms', 'general_terms', 'str'],
  ['terms', 'terms', 'str'],
  ['advertisedPrice', 'advertised_price_minor', 'money'],
  ['currency', 'currency', 'str'],
  ['bookingMode', 'booking_mode', 'str'],
  ['confirmMode', 'confirm_mode', 'str'],
  ['confirmModeMinParticipants', 'confirm_mode_min_participants', 'int'],
  ['agentPaymentType', 'agent_payment_type', 'str'],
  ['cancellationPolicyDays', 'cancellation_policy_days', 'int'],
  ['barcodeOutputType', 'barcode_output_type', 'str'],
  ['qrCodeType', 'qr_code_type', 'str'],
  ['charter', 'charter', 'bool'],
  ['quantityRequired', 'quantity_required', 'bool'],
  ['quantityRequiredMin', 'quantity_required_min', 'int'],
  ['quantityRequiredMax', 'quantity_required_max', 'int'],
  ['durationMinutes', 'duration_minutes', 'int'],
  ['minimumNoticeMinutes', 'minimum_notice_minutes', 'int'],
  ['waitListingEnabled', 'wait_listing_enabled', 'bool'],
  ['apiBookingSupported', 'api_booking_supported', 'bool'],
  ['commissionIncludesExtras', 'commission_includes_extras', 'bool'],
  ['maxCommissionNetRate', 'max_commission_net_rate_minor', 'money'],
  ['maxCommissionPercent', 'max_commission_percent', 'float'],
  ['timezone', 'timezone', 'str'],
  ['unitLabel', 'unit_label', 'str'],
  ['unitLabelPlural', 'unit_label_plural', 'str'],
  ['accountingAccount', 'accounting_account', 'str'],
  ['pickupId', 'pickup_id', 'int'],
  ['checkinRequiresPayment', 'checkin_requires_payment', 'bool'],
  ['enforceRequiredFields', 'enforce_required_fields', 'bool'],
  ['checkinOpensMinutesBefore', 'checkin_opens_minutes_before', 'int'],
];
const DETAILS = ['bookingFields', 'videos', 'languages', 'tags', 'locationAddress', 'productSeoTags', 'taxes'] as const;

export interface PriceOption {
  id: number;
  label: string;
  price: number;
  priceGroupType?: string;
  minQuantity?: number;
  maxQuantity?: number;
  seatsUsed: number;
  productCode: string;
}

export type Product = Record<string, unknown> & {
  productCode: string;
  name: string;
  currency: string;
  bookingMode: string;
  confirmMode: string;
  timezone: string;
  priceOptions: PriceOption[];
};

export interface ProductSearch {
  search?: string;
  limit: number;
  offset: number;
  marketplace?: boolean;
}

export function priceOptionToApi(row: PriceOptionsTable, currency: string): PriceOption {
  const option: PriceOption = { id: row.id, label: row.label, price: fromMinor(row.price_minor, currency), seatsUsed: row.seats_used, productCode: row.product_code };
  if (row.price_group_type !== null) option.priceGroupType = row.price_group_type;
  if (row.min_quantity !== null) option.minQuantity = row.min_quantity;
  if (row.max_quantity !== null) option.maxQuantity = row.max_quantity;
  return option;
}

/** GET /v1/products/{code} and every product check read these: compiled once. */
const liveProduct = fixedQuery((db, productCode: string) => db.selectFrom('products').selectAll().where('product_code', '=', productCode).where('deleted_at', 'is', null));
const optionsOfOne = fixedQuery((db, productCode: string) => db.selectFrom('price_options').selectAll().where('product_code', '=', productCode).orderBy('position'));
const extrasOfOne = fixedQuery((db, productCode: string) => db.selectFrom('product_extras').select(['product_code', 'extra_id']).where('product_code', '=', productCode).orderBy('position'));
const imagesOfOne = fixedQuery((db, productCode: string) => db.selectFrom('product_images').selectAll().where('product_code', '=', productCode).orderBy('position'));

export function createProducts(ctx: EngineContext, companies: CompaniesService) {
  async function rowOrThrow(db: Kysely<Database>, productCode: string): Promise<ProductsTable> {
    const [row] = await liveProduct(db, productCode);
    if (!row) throw new DomainError('NOT_FOUND', `Product ${productCode} was not found`);
    return row;
  }

  async function toApi(db: Kysely<Database>, rows: ProductsTable[]): Promise<Product[]> {
    if (rows.length === 0) return [];
    const company = await companies.supplier();
    const codes = rows.map((r) => r.product_code);
    const one = codes.length === 1 ? codes[0] : undefined;
    const [options, extras, images] = await Promise.all(
      one !== undefined
        ? [optionsOfOne(db, one), extrasOfOne(db, one), imagesOfOne(db, one)]
        : [
            db.selectFrom('price_options').selectAll().where('product_code', 'in', codes).orderBy('product_code').orderBy('position').execute(),
            db.selectFrom('product_extras').select(['product_code', 'extra_id']).where('product_code', 'in', codes).orderBy('position').execute(),
            db.selectFrom('product_images').selectAll().where('product_code', 'in', codes).orderBy('position').execute(),
          ],
    );
    return rows.map((row) => {
      const product: Record<string, unknown> = { productCode: row.product_code };
      for (const [field, column, kind] of FLAT) {
        const value = row[column];
        if (value === null || value === undefined) continue;
        if (kind === 'bool') product[field] = value === 1;
        else if (kind === 'money') product[field] = fromMinor(value as number, row.currency);
        else product[field] = value;
      }
      product.timezone = row.timezone ?? company.timezone;
      Object.assign(product, JSON.parse(row.details_json));
      product.priceOptions = options.filter((o) => o.product_code === row.product_code).map((o) => priceOptionToApi(o, row.currency));
      product.extras = extras.filter((e) => e.product_code === row.product_code).map((e) => ({ id: e.extra_id }));
      product.images = images.filter((i) => i.product_code === row.product_code).map(imageToApi);
      product.supplierId = company.id;
      product.supplierName = company.companyName;
      product.supplierAlias = company.alias;
      product.dateCreated = toIso(row.created_at);
      product.dateUpdated = toIso(row.updated_at);
      return product as Product;
    });
  }

  function flatColumns(input: ProductUpdateBody, currency: string): Partial<ProductsTable> {
    const values: Record<string, unknown> = {};
    for (const [field, column, kind] of FLAT) {
      const value = (input as Record<string, unknown>)[field];
      if (value === undefined) continue;
      if (kind === 'bool') values[column] = value ? 1 : 0;
      else if (kind === 'money') values[column] = toMinor(value as number, currency);
      else values[column] = value;
    }
    return values as Partial<ProductsTable>;
  }

  async function checkReferences(tx: Tx, input: ProductUpdateBody): Promise<void> {
    if (input.timezone !== undefined && !isValidTimezone(input.timezone)) {
      throw new DomainError('VALIDATION_ERROR', `timezone ${input.timezone} is not an IANA timezone name`);
    }
    if (input.pickupId !== undefined) {
      const list = await tx.db.selectFrom('pickup_lists').select('id').where('id', '=', input.pickupId).executeTakeFirst();
      if (!list) throw new DomainError('VALIDATION_ERROR', `pickupId ${input.pickupId} names no pickup list`);
    }
    if (input.extras !== undefined && input.extras.length > 0) {
      const ids = input.extras.map((e) => e.id);
      const found = await tx.db.selectFrom('extras').select('id').where('id', 'in', ids).execute();
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw new DomainError('VALIDATION_ERROR', `extras: no extra with id ${missing.join(', ')}`);
    }
    if (input.priceOptions) {
      const labels = input.priceOptions.map((o) => o.label.toLowerCase());
      const duplicate = labels.find((l, i) => labels.indexOf(l) !== i);
      if (duplicate !== undefined) throw new DomainError('VALIDATION_ERROR', `priceOptions: the label "${duplicate}" is used twice`);
      for (const o of input.priceOptions) {
        if (o.minQuantity !== undefined && o.maxQuantity !== undefined && o.minQuantity > o.maxQuantity) {
          throw new DomainError('VALIDATION_ERROR', `priceOptions "${o.label}": minQuantity must not be greater than maxQuantity`);
        }
        if (o.price < 0) throw new DomainError('VALIDATION_ERROR', `priceOptions "${o.label}": price must not be negative`);
      }
    }
  }

  /** Replaces the option list; an option keeps its id when matched by id or by label. */
  async function writePriceOptions(tx: Tx, productCode: string, currency: string, options: PriceOptionBody[]): Promise<void> {
    const existing = await tx.db.selectFrom('price_options').selectAll().where('product_code', '=', productCode).execute();
    const kept = new Set<number>();
    const plan = options.map((option, position) => {
      const match = existing.find((e) => option.id !== undefined && e.id === option.id) ?? existing.find((e) => e.label.toLowerCase() === option.label.toLowerCase());
      if (option.id !== undefined && !match) throw new DomainError('VALIDATION_ERROR', `priceOptions: product ${productCode} has no option with id ${option.id}`);
      if (match) kept.add(match.id);
      return { option, position, id: match?.id };
    });
    const removed = existing.filter((e) => !kept.has(e.id)).map((e) => e.id);
    if (removed.length) await tx.db.deleteFrom('price_options').where('id', 'in', removed).execute();
    // Labels are unique per product: park kept rows under temporary labels before renaming.
    for (const { id } of plan) if (id !== undefined) await tx.db.updateTable('price_options').set({ label: `\u0000${id}` }).where('id', '=', id).execute();
    for (const { option, position, id } of plan) {
      const values = {
        position,
        label: option.label,
        price_minor: toMinor(option.price, currency),
        price_group_type: option.priceGroupType ?? null,
        min_quantity: option.minQuantity ?? null,
        max_quantity: option.maxQuantity ?? null,
        seats_used: option.seatsUsed ?? 1,
      };
      if (id !== undefined) await tx.db.updateTable('price_options').set(values).where('id', '=', id).execute();
      else await tx.db.insertInto('price_options').values({ id: ctx.ids.nextId(), product_code: productCode, ...values }).execute();
    }
  }

  async function writeExtras(tx: Tx, productCode: string, extras: { id: number }[]): Promise<void> {
    await tx.db.deleteFrom('product_extras').where('product_code', '=', productCode).execute();
    const unique = [...new Set(extras.map((e) => e.id))];
    if (unique.length) await tx.db.insertInto('product_extras').values(unique.map((extra_id, position) => ({ product_code: productCode, extra_id, position }))).execute();
  }

  function details(input: ProductUpdateBody, previous: Record<string, unknown> = {}): string {
    const next: Record<string, unknown> = { ...previous };
    for (const key of DETAILS) if (input[key] !== undefined) next[key] = input[key];
    return JSON.stringify(next);
  }

  async function newProductCode(db: Kysely<Database>): Promise<string> {
    for (;;) {
      const code = `P${ctx.ids.token(4)}`.slice(0, 7);
      const clash = await db.selectFrom('products').select('product_code').where('product_code', '=', code).executeTakeFirst();
      if (!clash) return code;
    }
  }

  const normalise = <T extends ProductUpdateBody>(input: T): T =>
    input.accountingAccount === undefined && input.xeroAccount !== undefined ? { ...input, accountingAccount: input.xeroAccount } : input;

  const service = {
    async get(productCode: string): Promise<Product> {
      return (await toApi(ctx.db, [await rowOrThrow(ctx.db, productCode)]))[0];
    },

    async search(query: ProductSearch): Promise<Product[]> {
      let q = ctx.db.selectFrom('products').selectAll().where('deleted_at', 'is', null);
      if (query.marketplace) q = q.where((eb) => eb.or([eb('api_booking_supported', 'is', null), eb('api_booking_supported', '=', 1)]));
      if (query.search) {
        const text = query.search;
        q = q.where((eb) => eb.or(['name', 'product_code', 'internal_code', 'short_description'].map((column) => containsText(column, text))));
      }
      const rows = await q.orderBy('name').orderBy('product_code').limit(query.limit).offset(query.offset).execute();
      return toApi(ctx.db, rows);
    },

    async create(body: ProductBody, actor: Actor): Promise<Product> {
      const input = normalise(body);
      const company = await companies.supplier();
      const currency = input.currency ?? company.currency;
      const productCode = await ctx.write(actor, async (tx) => {
        await checkReferences(tx, input);
        const productCode = await newProductCode(tx.db);
        await tx.db
          .insertInto('products')
          .values({
            product_code: productCode,
            product_type: 'ACTIVITY',
            booking_mode: 'INVENTORY',
            confirm_mode: 'AUTOCONFIRM',
            ...flatColumns(input, currency),
            name: input.name,
            currency,
            details_json: details(input),
            created_at: tx.now,
            updated_at: tx.now,
          } as ProductsTable)
          .execute();
        await writePriceOptions(tx, productCode, currency, input.priceOptions ?? []);
        await writeExtras(tx, productCode, input.extras ?? []);
        await tx.log('product', productCode, 'create', input);
        return productCode;
      });
      return service.get(productCode);
    },

    /** Fields left out keep their value; a priceOptions or extras list given replaces the old one. */
    async update(productCode: string, body: ProductUpdateBody, actor: Actor): Promise<Product> {
      const input = normalise(body);
      await ctx.write(actor, async (tx) => {
        const row = await rowOrThrow(tx.db, productCode);
        if (input.currency !== undefined && input.currency !== row.currency) {
          const booked = await tx.db.selectFrom('booking_items').select('id').where('product_code', '=', productCode).limit(1).executeTakeFirst();
          if (booked) throw new DomainError('CONFLICT', `Product ${productCode} has bookings; its currency cannot change`);
        }
        const currency = input.currency ?? row.currency;
        const merged = { quantityRequiredMin: input.quantityRequiredMin ?? row.quantity_required_min, quantityRequiredMax: input.quantityRequiredMax ?? row.quantity_required_max };
        if (merged.quantityRequiredMin !== null && merged.quantityRequiredMax !== null && merged.quantityRequiredMin > merged.quantityRequiredMax) {
          throw new DomainError('VALIDATION_ERROR', 'quantityRequiredMin must not be greater than quantityRequiredMax');
        }
        await checkReferences(tx, input);
        await tx.db
          .updateTable('products')
          .set({ ...flatColumns(input, currency), details_json: details(input, JSON.parse(row.details_json)), updated_at: tx.now })
          .where('product_code', '=', productCode)
          .execute();
        if (input.priceOptions) await writePriceOptions(tx, productCode, currency, input.priceOptions);
        if (input.extras) await writeExtras(tx, productCode, input.extras);
        await tx.log('product', productCode, 'update', input);
      });
      return service.get(productCode);
    },

    /** Archives the product; refused while it has live bookings for sessions yet to start. */
    async remove(productCode: string, actor: Actor): Promise<void> {
      await ctx.write(actor, async (tx) => {
        await rowOrThrow(tx.db, productCode);
        const future = await tx.db
          .selectFrom('booking_items')
          .innerJoin('bookings', 'bookings.order_number', 'booking_items.order_number')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('booking_items.product_code', '=', productCode)
          .where('booking_items.end_at', '>', tx.now)
          .where('bookings.status', 'in', [...LIVE_STATUSES])
          .executeTakeFirstOrThrow();
        if (Number(future.n) > 0) {
          throw new DomainError('IN_USE', `Product ${productCode} has ${future.n} upcoming booking(s); cancel or move them before deleting the product`);
        }
        await tx.db.updateTable('products').set({ deleted_at: tx.now, updated_at: tx.now }).where('product_code', '=', productCode).execute();
        await tx.log('product', productCode, 'delete', {});
      });
    },

    /** The product's timezone (its own, or the company's). */
    async timezoneOf(productCode: string): Promise<string> {
      const row = await rowOrThrow(ctx.db, productCode);
      return row.timezone ?? (await companies.supplier()).timezone;
    },

    rowOrThrow,
    toApi,
  };
  return service;
}

export type ProductsService = ReturnType<typeof createProducts>;
