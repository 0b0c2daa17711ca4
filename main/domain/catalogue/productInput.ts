import { pickupListExists } from '../../../db/queries/pickups';
import { findExistingExtraIds } from '../../../db/queries/extras';
import type { ProductUpdateBody } from '../../contract/products';
import type { Tx } from '../context';
import { DomainError } from '../errors';
import { isValidTimezone } from '../time';

/** xeroAccount (the original service's brand word) is taken as accountingAccount when accountingAccount is not sent. */
export const normaliseProductInput = <T extends ProductUpdateBody>(input: T): T =>
  input.accountingAccount === undefined && input.xeroAccount !== undefined ? { ...input, accountingAccount: input.xeroAccount } : input;

/** Refuses a product input whose timezone, pickup list or extras name nothing, or whose price options contradict themselves. */
export async function checkReferences(tx: Tx, input: ProductUpdateBody): Promise<void> {
  if (input.timezone !== undefined && !isValidTimezone(input.timezone)) {
    throw new DomainError('VALIDATION_ERROR', `timezone ${input.timezone} is not an IANA timezone name`);
  }
  if (input.pickupId !== undefined && !(await pickupListExists(tx.db, input.pickupId))) {
    throw new DomainError('VALIDATION_ERROR', `pickupId ${input.pickupId} names no pickup list`);
  }
  if (input.extras !== undefined && input.extras.length > 0) {
    const ids = input.extras.map((e) => e.id);
    const found = await findExistingExtraIds(tx.db, ids);
    const missing = ids.filter((id) => !found.includes(id));
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
