import { findCategoryId, findLiveProductCode } from '../../../db/queries/vouchers';
import type { VoucherBody } from '../../contract/vouchers';
import type { Tx } from '../context';
import { DomainError } from '../errors';
import { toMinor } from '../money';
import { isValueVoucher } from './voucherBalance';

const needsProduct = (valueType: string) => valueType === 'PRODUCT' || valueType.endsWith('_LIMITPRODUCT');
const needsCategory = (valueType: string) => valueType.endsWith('_LIMITCATALOG');

/** Checks the type's rules and returns the columns that describe the voucher's value. */
export async function valueColumns(tx: Tx, body: VoucherBody, currency: string) {
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
