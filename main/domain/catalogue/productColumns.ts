import type { ProductsTable } from '../../../db/schema';
import type { ProductBody, ProductUpdateBody } from '../../contract/products';
import { fromMinor, toMinor } from '../money';

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

/** The flat API fields of a stored product (nulls left out; booleans and money converted). */
export function flatFields(row: ProductsTable): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [field, column, kind] of FLAT) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (kind === 'bool') fields[field] = value === 1;
    else if (kind === 'money') fields[field] = fromMinor(value as number, row.currency);
    else fields[field] = value;
  }
  return fields;
}

/** The columns an input sets (fields left out are left out). */
export function flatColumns(input: ProductUpdateBody, currency: string): Partial<ProductsTable> {
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

/** The nested fields, stored whole as JSON: the input's over the previous ones. */
export function detailsJson(input: ProductUpdateBody, previous: Record<string, unknown> = {}): string {
  const next: Record<string, unknown> = { ...previous };
  for (const key of DETAILS) if (input[key] !== undefined) next[key] = input[key];
  return JSON.stringify(next);
}
