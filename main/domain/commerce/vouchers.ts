import type { Kysely } from 'kysely';
import { areaChangeTokenOf, type ChangeObservation } from '../../../db/queries/changes';
import type { Database, VouchersTable } from '../../../db/schema';
import {
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
import type { Actor, EngineContext, IdGenerator } from '../context';
import type { CompaniesService } from '../platform/companies';
import { DomainError } from '../errors';
import { parseTimeParam } from '../time';
import { weakCodeReason } from './voucherCodeStrength';
import { sharedAnswer } from '../sharedAnswers';
import { expiryWindow, seesNotes, voucherToApi, type Voucher } from './voucherAnswers';
import { valueColumns } from './voucherValue';

export type { Voucher } from './voucherAnswers';

export interface CreateOptions {
  /** For imports and demo data only: the API always refuses an expiry in the past. */
  allowPastExpiry?: boolean;
}

/**
 * An agent sees only the vouchers it sold: those issued by its own bookings (gift cards, `sourceOrder`
 * one of its reseller's orders). Codes it did not sell are not listed, searched or shown (404): a code
 * is the bearer's money. A code a customer hands it still redeems in its own booking (and a quote shows
 * what it is worth there).
 */
const onlySoldBy = (actor: Actor): number | null | undefined => (actor.role === 'agent' ? actor.resellerId : undefined);

/** How many distinct search pages are kept (the office's list and a few searches typed into it). */
const VOUCHER_PAGES_CACHED = 50;

/**
 * A reader of search pages. Pages of the supplier's searches are kept while no voucher or redemption
 * changed (here, in another process or by sync); status and remaining value are still derived from
 * them at each read, since they depend on the time. An agent's search also reads bookings (which
 * vouchers it sold): never kept. `seen`: the caller's observation of other processes' commits.
 */
function voucherPageReader(ctx: EngineContext): (filter: VoucherFilter, seen?: ChangeObservation) => Promise<VoucherPageRow[]> {
  const readVoucherPage = voucherSearchReader(ctx.handle);
  const changes = areaChangeTokenOf(ctx.handle);
  let pages: { token: string; byFilter: Map<string, VoucherPageRow[]> } = { token: '', byFilter: new Map() };
  return async function searchVouchers(filter, seen) {
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
  };
}

/** 10 Crockford base-32 characters (50 random bits): readable aloud, not guessable. */
async function newCode(db: Kysely<Database>, ids: IdGenerator): Promise<string> {
  for (;;) {
    const code = ids.token(7).slice(0, 10);
    if (!(await voucherCodeExists(db, code))) return code;
  }
}

async function rowOrThrow(db: Kysely<Database>, code: string): Promise<VouchersTable> {
  // Upper-case first (TourDesk's own codes); as given too, for codes another writer stored otherwise.
  const wanted = code.trim();
  const rows = await findVouchersByCodes(db, [wanted.toUpperCase(), wanted]);
  const row = rows.find((r) => r.code === wanted.toUpperCase()) ?? rows[0];
  if (!row) throw new DomainError('NOT_FOUND', `Voucher ${code} was not found`);
  return row;
}

export function createVouchers(ctx: EngineContext, companies: CompaniesService) {
  const searchVouchers = voucherPageReader(ctx);
  /** The answers of kept pages (by the page's row array, so they go when the page goes), with the expiry window they hold in. */
  const keptAnswers = new WeakMap<VoucherPageRow[], { vouchers: Voucher[]; expiredBefore: number; nextExpiry: number }>();

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
    return rows.map((row) => voucherToApi(row, used.get(row.code), actor, now));
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
          code = await newCode(tx.db, ctx.ids);
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
