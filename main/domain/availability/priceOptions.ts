import type { PriceOptionsTable } from '../../../db/schema';
import type { SessionPriceOptionRow } from '../../../db/queries/sessionPriceOptions';
import type { SessionPriceOptionBody } from '../../contract/availability';
import { DomainError } from '../errors';
import { toMinor } from '../money';
import { priceOptionToApi, type PriceOption } from '../catalogue/products';

export type SessionOverride = SessionPriceOptionRow;

/**
 * Matches each override to one of the product's options (by id, else by label, else the only
 * option) and turns it into a session_price_options row. A session never invents options: new
 * ones are made with the product update.
 */
export function resolveOverrides(productCode: string, currency: string, productOptions: PriceOptionsTable[], overrides: SessionPriceOptionBody[], prefix = ''): SessionOverride[] {
  const seen = new Set<number>();
  return overrides.map((override, index) => {
    const where = `${prefix}priceOptions[${index}]`;
    if (override.productCode !== undefined && override.productCode !== productCode) {
      throw new DomainError('VALIDATION_ERROR', `${where}: productCode ${override.productCode} is not this session's product (${productCode})`);
    }
    const byId = override.id !== undefined ? productOptions.find((o) => o.id === override.id) : undefined;
    const byLabel = override.label ? productOptions.find((o) => o.label.toLowerCase() === override.label!.toLowerCase()) : undefined;
    if (override.id !== undefined && !byId) {
      throw new DomainError('VALIDATION_ERROR', `${where}: product ${productCode} has no price option with id ${override.id}; new options are added with the product update`);
    }
    if (override.id === undefined && override.label && !byLabel) {
      throw new DomainError('VALIDATION_ERROR', `${where}: product ${productCode} has no price option labelled "${override.label}"; new options are added with the product update`);
    }
    if (byId && byLabel && byId.id !== byLabel.id) {
      throw new DomainError('VALIDATION_ERROR', `${where}: id ${override.id} and label "${override.label}" name different price options`);
    }
    const match = byId ?? byLabel ?? (override.id === undefined && !override.label && productOptions.length === 1 ? productOptions[0] : undefined);
    if (!match) throw new DomainError('VALIDATION_ERROR', `${where}: name the product's price option by id or label`);
    if (seen.has(match.id)) throw new DomainError('VALIDATION_ERROR', `${where}: the price option "${match.label}" is overridden twice`);
    seen.add(match.id);
    const min = override.minQuantity ?? match.min_quantity;
    const max = override.maxQuantity ?? match.max_quantity;
    if (min !== null && max !== null && min > max) throw new DomainError('VALIDATION_ERROR', `${where}: minQuantity must not be greater than maxQuantity`);
    return {
      price_option_id: match.id,
      price_minor: override.price === undefined ? null : toMinor(override.price, currency),
      price_group_type: override.priceGroupType ?? null,
      min_quantity: override.minQuantity ?? null,
      max_quantity: override.maxQuantity ?? null,
      seats_used: override.seatsUsed ?? null,
    };
  });
}

/** The product option with the session's override laid over it. */
export function effectiveOption(option: PriceOptionsTable, override: SessionOverride | undefined, currency: string): PriceOption {
  const merged: PriceOptionsTable = override
    ? {
        ...option,
        price_minor: override.price_minor ?? option.price_minor,
        price_group_type: override.price_group_type ?? option.price_group_type,
        min_quantity: override.min_quantity ?? option.min_quantity,
        max_quantity: override.max_quantity ?? option.max_quantity,
        seats_used: override.seats_used ?? option.seats_used,
      }
    : option;
  return priceOptionToApi(merged, currency);
}
