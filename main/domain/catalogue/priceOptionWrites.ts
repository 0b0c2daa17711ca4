import { deletePriceOptions, findPriceOptionsOfProduct, insertPriceOption, updatePriceOption } from '../../../db/queries/products';
import type { PriceOptionBody } from '../../contract/products';
import type { IdGenerator, Tx } from '../context';
import { DomainError } from '../errors';
import { toMinor } from '../money';

/** Replaces the option list; an option keeps its id when matched by id or by label. */
export async function writePriceOptions(tx: Tx, ids: IdGenerator, productCode: string, currency: string, options: PriceOptionBody[]): Promise<void> {
  const existing = await findPriceOptionsOfProduct(tx.db, productCode);
  const kept = new Set<number>();
  const plan = options.map((option, position) => {
    const match = existing.find((e) => option.id !== undefined && e.id === option.id) ?? existing.find((e) => e.label.toLowerCase() === option.label.toLowerCase());
    if (option.id !== undefined && !match) throw new DomainError('VALIDATION_ERROR', `priceOptions: product ${productCode} has no option with id ${option.id}`);
    if (match) kept.add(match.id);
    return { option, position, id: match?.id };
  });
  const removed = existing.filter((e) => !kept.has(e.id)).map((e) => e.id);
  if (removed.length) await deletePriceOptions(tx.db, removed);
  // Labels are unique per product: park kept rows under temporary labels before renaming. A parked
  // label is longer than any the contract accepts (120), so it clashes with none; no NUL in it, as
  // PostgreSQL's text cannot hold one (the hub on PostgreSQL).
  for (const { id } of plan) if (id !== undefined) await updatePriceOption(tx.db, id, { label: `${'~'.repeat(121)}${id}` });
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
    if (id !== undefined) await updatePriceOption(tx.db, id, values);
    else await insertPriceOption(tx.db, { id: ids.nextId(), product_code: productCode, ...values });
  }
}
