import { roundMinor } from '../money';

/**
 * Booking prices, in integer minor units of the product currency. Every line is rounded once,
 * half-up, where it is computed (a percentage tax of an item, a percentage voucher of an item);
 * sums of already-rounded lines are exact.
 */
export interface OptionLine {
  priceMinor: number;
  /** EACH: the price is per unit; TOTAL: the price is for the whole group, charged once when value > 0. */
  priceGroupType: string | null;
  value: number;
}

export interface ExtraLine {
  extraPriceType: string;
  priceMinor: number;
  quantity: number;
}

export interface Tax {
  label?: string;
  taxPercent?: number;
  taxAmount?: number;
  priceInclusive?: boolean;
  compound?: boolean;
  taxType?: string;
}

export interface TaxLine {
  label: string | null;
  taxType: string | null;
  priceInclusive: boolean;
  compound: boolean;
  amountMinor: number;
}

export const optionLineMinor = (line: OptionLine): number =>
  line.value <= 0 ? 0 : line.priceGroupType === 'TOTAL' ? line.priceMinor : line.priceMinor * line.value;

export const itemAmountMinor = (lines: OptionLine[]): number => lines.reduce((sum, line) => sum + optionLineMinor(line), 0);

/**
 * Extras: QUANTITY is price × the quantity booked; FIXED is the price once per item (quantity is
 * stored as 1); ANY is price × the quantity booked, and defaults to one per participant.
 */
export const extraLineMinor = (extra: ExtraLine): number => (extra.extraPriceType === 'FIXED' ? extra.priceMinor : extra.priceMinor * extra.quantity);

/**
 * Taxes in product order on base = amount + extras. Inclusive taxes are already in the price
 * (reported: base − base / (1 + p)); exclusive ones are added (base × p); a compound tax is
 * computed on the base plus the exclusive taxes before it. taxAmount (a fixed amount in major
 * units, converted by the caller) is taken as-is per item.
 */
export function taxLines(baseMinor: number, taxes: Tax[], toMinor: (amount: number) => number): TaxLine[] {
  const lines: TaxLine[] = [];
  let exclusiveSoFar = 0;
  for (const tax of taxes) {
    const inclusive = tax.priceInclusive === true;
    const compound = tax.compound === true;
    const base = compound ? baseMinor + exclusiveSoFar : baseMinor;
    let amountMinor = 0;
    if (tax.taxPercent !== undefined && tax.taxPercent !== null) {
      const p = tax.taxPercent / 100;
      amountMinor = roundMinor(inclusive ? base - base / (1 + p) : base * p);
    } else if (tax.taxAmount !== undefined && tax.taxAmount !== null) {
      amountMinor = toMinor(tax.taxAmount);
    }
    if (!inclusive) exclusiveSoFar += amountMinor;
    lines.push({ label: tax.label ?? null, taxType: tax.taxType ?? null, priceInclusive: inclusive, compound, amountMinor });
  }
  return lines;
}

export const exclusiveTaxMinor = (lines: TaxLine[]): number => lines.filter((l) => !l.priceInclusive).reduce((sum, l) => sum + l.amountMinor, 0);

/** Splits a discount over items in order, each taking at most what it still owes. */
export function spread(discountMinor: number, dueByItem: number[]): number[] {
  let left = discountMinor;
  return dueByItem.map((due) => {
    const take = Math.max(0, Math.min(due, left));
    left -= take;
    return take;
  });
}
