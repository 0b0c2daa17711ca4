import type { Kysely } from 'kysely';
import { areaChangeTokenOf, type ChangeObservation } from '../../../db/queries/changes';
import type { Database, VouchersTable } from '../../../db/schema';
import {
  findCategoryId,
  findLiveProductCode,
  findVoucherUses,
  findVouchersByCodes,
  insertVoucher,
  voucherCodeExists,
  voucherSearchReader,
  voucherSoldByReseller,
  type VoucherRow,
  type VoucherUse,
  type VoucherPageRow,
  type VoucherFilter,
} from '../../../db/queries/vouchers';
import type { VoucherBody, VoucherSearch } from '../../contract/vouchers';
import type { Actor, EngineContext, Tx } from '../context';
import type { CompaniesService } from '../platform/companies';
import { DomainError } from '../errors';
import { fromMinor, toMinor } from '../money';
import { parseTimeParam, toIso } from '../time';
import { isValueVoucher, voucherState, type VoucherStatus } from './voucherBalance';
import { weakCodeReason } from './voucherCodeStrength';
import { sharedAnswer } from '../sharedAnswers';

/** The spec's voucher, plus TourDesk's remainingValue, currency, productCode and categoryId. */
export interface Voucher {
  code: string;
  status: VoucherStatus;
  issueDate: string;
  expiryDate: string | null;
  value?: number;
  valueType: string;
  sourceOrder: string | null;
  internalNotes?: string | null;
  internalReference: string | null;
  remainingValue?: number;
  currency: string | null;
  productCode?: string;
  categoryId?: number;
}

export interface CreateOptions {
  /** For imports and demo data only: the API always refuses an expiry in the past. */
  allowPastExpiry?: boolean;
}

const needsProduct = (valueType: string) => valueType === 'PRODUCT' || valueType.endsWith('_LIMITPRODUCT');
const needsCategory = (valueType: string) => valueType.endsWith('_LIMITCATALOG');
/** Internal notes are for the supplier only (the spec says so); agents get the voucher without them. */
const seesNotes = (actor: Actor) => actor.role !== 'agent';
/**
 * An agent sees only the vouchers it sold: those issued by its own bookings (gift cards, `sourceOrder`
 * one of its reseller's orders). Codes it did not sell are not listed, searched or shown (404): a code
 * is the bearer's money. A code a customer hands it still redeems in its own booking (and a quote shows
 * what it is worth there).
 */
const onlySoldBy = (actor: Actor): number | null | undefined => (actor.role === 'agent' ? actor.resellerId : undefined);

/** How many distinct search pages are kept (the office's list and a few searches typed into it). */
const VOUCHER_PAGES_CACHED = 50;

export function createVouchers(ctx: EngineContext, companies: CompaniesService) {
  const readVoucherPage = voucherSearchReader(ctx.handle);
  // Pages of the supplier's searches are kept while no voucher or redemption changed (here, in another
  // process or by sync); status and remaining value are still derived from them at each read, since
  // they depend on the time. An agent's search also reads bookings (which vouchers it sold): never kept.
  const changes = areaChangeTokenOf(ctx.handle);
  let pages: { token: string; byFilter: Map<string, VoucherPageRow[]> } = { token: '', byFilter: new Map() };
  async function searchVouchers(filter: VoucherFilter, seen?: ChangeObservation): Promise<VoucherPageRow[]> {
    if (filter.soldByReseller !== undefined) return readVoucherPage(filter);
    const token = changes('vouchers', seen);
    if (pages.token !== token) pages = { token, byFilter: new Map() };
    const key = JSON.stringify([filter.text ?? null, filter.columns, filter.limit, filter.offset]);
    const known = pages.byFilter.get(key);
    if (known) return known;
    const rows = await readVoucherPage(filter);
    if (pages.token === token) {
      if (pages.byFilter.size >= VOUCHER_PAGES_CACHED) pages.byFilter.clear();
      pages.byFilter.set(key, rows);
    }
    return rows;
  }

  /**
   * The answers of kept pages (by the page's row array, so they go when the page goes). Status and
   * remaining value depend on the time only through expiry: an answer holds while the clock stays
   * after the latest expiry already passed and at or before the next one.
   */
  const keptAnswers = new WeakMap<VoucherPageRow[], { vouchers: Voucher[]; expiredBefore: number; nextExpiry: number }>();
  function expiryWindow(rows: VoucherRow[], now: number): { expiredBefore: number; nextExpiry: number } {
    let expiredBefore = -Infinity;
    let nextExpiry = Infinity;
    for (const { expiry_at: at } of rows) {
      if (at === null) continue;
      if (at < now) expiredBefore = Math.max(expiredBefore, at);
      else nextExpiry = Math.min(nextExpiry, at);
    }
    return { expiredBefore, nextExpiry };
  }

  /** `known`: the rows' redemptions, when the rows were read with them (a search page). */
  async function toApi(db: Kysely<Database>, rows: VoucherRow[], actor: Actor, known?: Map<string, VoucherUse>, at?: number): Promise<Voucher[]> {
    // Redemptions that count: those not reversed.
    const used =
      known ??
      (await findVoucherUses(
        db,
        rows.map((r) => r.code),
      ));
    const now = at ?? ctx.clock.now().getTime();
    return rows.map((row) => {
      const use = used.get(row.code);
      const state = voucherState(row, use?.redeemed ?? 0, use?.uses ?? 0, now);
      const currency = row.currency;
      const voucher: Voucher = {
        code: row.code,
        status: state.status,
        issueDate: toIso(row.issue_at),
        expiryDate: row.expiry_at === null ? null : toIso(row.expiry_at),
        valueType: row.value_type,
        sourceOrder: row.source_order,
        internalReference: row.internal_reference,
        currency,
      };
      if (isValueVoucher(row.value_type) && row.value_minor !== null && currency) {
        voucher.value = fromMinor(row.value_minor, currency);
        voucher.remainingValue = fromMinor(state.remainingMinor ?? 0, currency);
      } else if (row.value_percent !== null) {
        voucher.value = row.value_percent;
      }
      if (seesNotes(actor)) voucher.internalNotes = row.internal_notes;
      if (row.product_code !== null) voucher.productCode = row.product_code;
      if (row.category_id !== null) voucher.categoryId = row.category_id;
      return voucher;
    });
  }

  /** 10 Crockford base-32 characters (50 random bits): readable aloud, not guessable. */
  async function newCode(db: Kysely<Database>): Promise<string> {
    for (;;) {
      const code = ctx.ids.token(7).slice(0, 10);
      if (!(await voucherCodeExists(db, code))) return code;
    }
  }

  /** Checks the type's rules and returns the columns that describe the voucher's value. */
  async function valueColumns(tx: Tx, body: VoucherBody, currency: string) {
    const type = body.valueType;
    const columns = { value_minor: null as number | null, value_percent: null as number | null, product_code: null as string | null, category_id: null as number | null };
    if (isValueVoucher(type)) {
      if (body.value === undefined || body.value <= 0) throw new DomainError('VALIDATION_ERROR', `value must be an amount above 0 for a ${type} voucher`);
      columns.value_minor = toMinor(body.value, currency);
      if (columns.value_minor <= 0) throw new DomainError('VALIDATION_ERROR', `value ${body.value} is less than the smallest ${currency} unit`);
    } else if (type.startsWith('PERCENT')) {
      if (body.value === undefined || body.value <= 0 || body.value > 100) throw new DomainError('VALIDATION_ERROR', `value must be a percentage above 0 and at most 100 for a ${type} voucher`);
      columns.value_percent = body.value;
    }
    if (needsProduct(type)) {
      if (body.productCode === undefined) throw new DomainError('VALIDATION_ERROR', `productCode is required for a ${type} voucher`);
      const productCode = await findLiveProductCode(tx.db, body.productCode);
      if (productCode === undefined) throw new DomainError('VALIDATION_ERROR', `productCode ${body.productCode} names no product`);
      columns.product_code = productCode;
    }
    if (needsCategory(type)) {
      if (body.categoryId === undefined) throw new DomainError('VALIDATION_ERROR', `categoryId is required for a ${type} voucher`);
      const categoryId = await findCategoryId(tx.db, body.categoryId);
      if (categoryId === undefined) throw new DomainError('VALIDATION_ERROR', `categoryId ${body.categoryId} names no category`);
      columns.category_id = categoryId;
    }
    return columns;
  }

  async function rowOrThrow(db: Kysely<Database>, code: string): Promise<VouchersTable> {
    // Upper-case first (TourDesk's own codes); as given too, for codes another writer stored otherwise.
    const wanted = code.trim();
    const rows = await findVouchersByCodes(db, [wanted.toUpperCase(), wanted]);
    const row = rows.find((r) => r.code === wanted.toUpperCase()) ?? rows[0];
    if (!row) throw new DomainError('NOT_FOUND', `Voucher ${code} was not found`);
    return row;
  }

  const service = {
    /** Codes are case-insensitive (stored upper-case): a customer may type them either way. */
    async get(code: string, actor: Actor): Promise<Voucher> {
      const row = await rowOrThrow(ctx.db, code);
      const resellerId = onlySoldBy(actor);
      if (resellerId !== undefined && (resellerId === null || !(await voucherSoldByReseller(ctx.db, row.code, resellerId)))) {
        throw new DomainError('NOT_FOUND', `Voucher ${code} was not found`);
      }
      return (await toApi(ctx.db, [row], actor))[0];
    },

    /** `seen`: the caller's observation of other processes' commits (a request's, taken as it starts). */
    async search(query: VoucherSearch, actor: Actor, seen?: ChangeObservation): Promise<Voucher[]> {
      const columns = ['code', 'internal_reference', 'source_order', ...(seesNotes(actor) ? ['internal_notes' as const] : [])] as const;
      const filter: VoucherFilter = { text: query.search, columns, soldByReseller: onlySoldBy(actor), limit: query.limit, offset: query.offset };
      const rows = await searchVouchers(filter, seen);
      const now = ctx.clock.now().getTime();
      // A kept page's answer holds while its rows are the same (same array) and no expiry lies between.
      const kept = filter.soldByReseller === undefined ? keptAnswers.get(rows) : undefined;
      if (kept && now > kept.expiredBefore && now <= kept.nextExpiry) return kept.vouchers;
      const vouchers = await toApi(ctx.db, rows, actor, new Map(rows.map((r) => [r.code, { voucher_code: r.code, redeemed: Number(r.redeemed), uses: Number(r.uses) }])), now);
      if (filter.soldByReseller === undefined) keptAnswers.set(rows, { vouchers: sharedAnswer(vouchers), ...expiryWindow(rows, now) });
      return vouchers;
    },

    async create(body: VoucherBody, actor: Actor, options: CreateOptions = {}): Promise<Voucher> {
      const weak = body.code === undefined ? undefined : weakCodeReason(body.code);
      if (weak !== undefined) throw new DomainError('VALIDATION_ERROR', weak);
      const company = await companies.supplier();
      const currency = body.currency ?? company.currency;
      const expiryAt = body.expiryDate === undefined ? null : parseTimeParam(body.expiryDate, company.timezone, 'upper', 'expiryDate');
      const code = await ctx.write(actor, async (tx) => {
        if (expiryAt !== null && expiryAt < tx.now && !options.allowPastExpiry) {
          throw new DomainError('VALIDATION_ERROR', `expiryDate ${body.expiryDate} is in the past`);
        }
        const columns = await valueColumns(tx, body, currency);
        let code: string;
        if (body.code !== undefined) {
          code = body.code.toUpperCase();
          if (await voucherCodeExists(tx.db, code)) throw new DomainError('DUPLICATE', `A voucher with code ${code} already exists`);
        } else {
          code = await newCode(tx.db);
        }
        await insertVoucher(tx.db, {
          code,
          value_type: body.valueType,
          ...columns,
          currency,
          issue_at: tx.now,
          expiry_at: expiryAt,
          source_order: null,
          internal_notes: body.internalNotes ?? null,
          internal_reference: body.internalReference ?? null,
          created_at: tx.now,
          updated_at: tx.now,
        });
        await tx.journal('voucher', code, 'create', { ...body, code, currency, expiryAt });
        return code;
      });
      return service.get(code, actor);
    },

    rowOrThrow,
  };
  return service;
}

export type VouchersService = ReturnType<typeof createVouchers>;
