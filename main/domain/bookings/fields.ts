import type { BookingFieldBody } from '../../contract/bookings';
import { DomainError } from '../errors';

const sameLabel = (a?: string, b?: string) => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
const filled = (field: BookingFieldBody | undefined) => !!field && field.value !== undefined && field.value.trim() !== '';

/**
 * Checks given field values against the product fields of the same label (any case): a List value
 * must be one of listOptions (CRLF separated), a Boolean true/false, a Date yyyy-MM-dd. Fields the
 * products do not define are kept as sent (clients send "First Name" with only label and value).
 * Returns the fields to store, with fieldType filled from the product's definition when missing.
 */
export function checkFieldValues(given: BookingFieldBody[], defined: BookingFieldBody[], where: string): BookingFieldBody[] {
  return given.map((field, i) => {
    const definition = defined.find((d) => sameLabel(d.label, field.label));
    const fieldType = field.fieldType ?? definition?.fieldType;
    const value = field.value;
    if (value !== undefined && value.trim() !== '') {
      const label = field.label ?? `fields[${i}]`;
      if (fieldType === 'List' && definition?.listOptions) {
        const options = definition.listOptions.split(/\r?\n/).map((o) => o.trim()).filter(Boolean);
        if (!options.includes(value.trim())) throw new DomainError('VALIDATION_ERROR', `${where}: "${label}" must be one of ${options.join(', ')}`);
      }
      if (fieldType === 'Boolean' && !/^(true|false)$/i.test(value.trim())) throw new DomainError('VALIDATION_ERROR', `${where}: "${label}" must be true or false`);
      if (fieldType === 'Date' && !isDate(value.trim())) throw new DomainError('VALIDATION_ERROR', `${where}: "${label}" must be a date yyyy-MM-dd`);
    }
    const stored: BookingFieldBody = { ...field };
    if (fieldType !== undefined) stored.fieldType = fieldType;
    return stored;
  });
}

function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
  return date.getUTCMonth() === +match[2] - 1 && date.getUTCDate() === +match[3];
}

export interface FieldProduct {
  productCode: string;
  enforce: boolean;
  fields: BookingFieldBody[];
  participants: BookingFieldBody[][];
  index: number;
}

/**
 * Required fields left empty. The spec announces enforcement without making it active, so by
 * default they are a requestStatus.warning; a product with enforceRequiredFields refuses (400).
 */
export function requiredFieldProblems(bookingFields: BookingFieldBody[], items: FieldProduct[]): { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  for (const item of items) {
    const out = item.enforce ? errors : warnings;
    for (const definition of item.fields) {
      if (definition.requiredPerBooking && !filled(bookingFields.find((f) => sameLabel(f.label, definition.label)))) {
        out.push(`fields: "${definition.label}" is required by ${item.productCode}`);
      }
      if (definition.requiredPerParticipant) {
        const missing = item.participants.filter((fields) => !filled(fields.find((f) => sameLabel(f.label, definition.label)))).length;
        if (missing > 0) out.push(`items[${item.index}].participants: "${definition.label}" is required for each participant (${missing} missing)`);
      }
    }
  }
  return { warnings: [...new Set(warnings)], errors: [...new Set(errors)] };
}
