import { countExternalCodes, findKnownExternalCodes, insertExternalCodes } from '../../../db/queries/externalCodes';
import type { Actor, EngineContext } from '../context';
import type { ProductsService } from './products';
import { DomainError } from '../errors';

export interface ExternalCodeStock {
  productCode: string;
  total: number;
  available: number;
}

export interface ImportResult extends ExternalCodeStock {
  imported: number;
  /** Codes already known (for this or another product): skipped, never reassigned. */
  skipped: string[];
}

const CODE_RE = /^[\x21-\x7e]{4,128}$/;

/**
 * The imported list that products with qrCodeType EXTERNAL draw their codes from (bookings take
 * one at random per participant or order). Codes are printable ASCII without spaces, 4..128
 * characters, unique across all products.
 */
export function createExternalCodes(ctx: EngineContext, products: ProductsService) {
  async function stock(productCode: string): Promise<ExternalCodeStock> {
    return { productCode, ...(await countExternalCodes(ctx.db, productCode)) };
  }

  return {
    async stock(productCode: string): Promise<ExternalCodeStock> {
      await products.rowOrThrow(ctx.db, productCode);
      return stock(productCode);
    },

    /** All or nothing: one malformed code refuses the whole import, naming it. */
    async import(productCode: string, codes: string[], actor: Actor): Promise<ImportResult> {
      const cleaned = codes.map((c) => c.trim()).filter((c) => c !== '');
      if (cleaned.length === 0) throw new DomainError('VALIDATION_ERROR', 'codes: send at least one code');
      const bad = cleaned.findIndex((c) => !CODE_RE.test(c));
      if (bad !== -1) throw new DomainError('VALIDATION_ERROR', `codes[${bad}]: "${cleaned[bad].slice(0, 40)}" is not a code (4 to 128 printable characters, no spaces)`);
      const unique = [...new Set(cleaned)];
      const { imported, skipped } = await ctx.write(actor, async (tx) => {
        await products.rowOrThrow(tx.db, productCode);
        const known = new Set(await findKnownExternalCodes(tx.db, unique));
        const fresh = unique.filter((c) => !known.has(c));
        await insertExternalCodes(tx.db, fresh.map((code) => ({ code, product_code: productCode, assigned_to: null, imported_at: tx.now })));
        if (fresh.length) await tx.journal('external_codes', productCode, 'import', { count: fresh.length });
        return { imported: fresh.length, skipped: [...known] };
      });
      return { ...(await stock(productCode)), imported, skipped };
    },
  };
}

export type ExternalCodesService = ReturnType<typeof createExternalCodes>;
