/**
 * Taking a payment at the desk, before anything is sent: the amount as typed, checked in words
 * (money, above 0, no more than is due, no more decimals than the currency has), and the body of
 * POST /v1/bookings/{orderNumber}/payments. Pure: the dialog and the tests share it.
 */
import type { TakePaymentBody } from '../../../main/contract/payments';
import { formats } from '../lib/formats';

export type PaymentType = TakePaymentBody['type'];

/** The API's desk payment types (main/contract/payments.ts DESK_PAYMENT_TYPES), as a clerk names them. */
export const PAYMENT_TYPES: readonly { value: PaymentType; label: string }[] = [
  { value: 'CASH', label: 'Cash' },
  { value: 'CREDITCARD', label: 'Card' },
  { value: 'OTHER', label: 'Other' },
];

export const paymentTypeLabel = (type: string | undefined): string => PAYMENT_TYPES.find((t) => t.value === type)?.label ?? (type ? type.charAt(0) + type.slice(1).toLowerCase() : 'Unspecified');

/** Currencies without minor units (ISO 4217 exponent 0) among those a tour company may use; the rest have 2. */
const WHOLE = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'XPF', 'UGX', 'PYG']);
export const decimalsOf = (currency: string) => (WHOLE.has(currency) ? 0 : 2);

/** "$150.00" (AUD, en-AU): an amount in the company's currency style, through the one format module like every screen. */
export const amountText = (amount: number, currency: string) => formats().money(amount, currency);

/** What the amount box starts with: all that is due, as the currency writes it. */
export const defaultAmount = (due: number, currency: string) => due.toFixed(decimalsOf(currency));

/** The amount typed ("150", "150.5", " 1,234.00 "), or null when it is not an amount of money. */
export function parseAmount(text: string): number | null {
  const plain = text.trim().replace(/^(A\$|NZ\$|US\$|\$|€|£)/, '').replace(/,(?=\d{3}(\D|$))/g, '').trim();
  if (!/^\d+(\.\d+)?$/.test(plain) && !/^\.\d+$/.test(plain)) return null;
  return Number(plain);
}

/** Why the amount cannot be taken, in words; null when it can. */
export function amountProblem(text: string, due: number, currency: string): string | null {
  if (text.trim() === '') return 'Enter the amount taken.';
  const amount = parseAmount(text);
  if (amount === null) return `“${text.trim()}” is not an amount of money: type it as ${defaultAmount(due || 12.5, currency)}.`;
  const decimals = decimalsOf(currency);
  if (Math.round(amount * 10 ** decimals) !== amount * 10 ** decimals) return decimals === 0 ? `${currency} has no cents: type a whole amount.` : `${currency} has ${decimals} decimals: ${text.trim()} has more.`;
  if (amount <= 0) return 'Enter an amount above 0.';
  if (due <= 0) return 'Nothing is due on this booking.';
  // Compared in minor units: 0.1 + 0.2 and friends must not refuse the exact balance.
  if (Math.round(amount * 10 ** decimals) > Math.round(due * 10 ** decimals)) return `That is more than the ${amountText(due, currency)} due.`;
  return null;
}

/** The body sent (and kept in the outbox while it waits): `paymentRef` makes a resend count once. */
export function paymentBody(input: { amountText: string; type: PaymentType; currency: string; device: string; paymentRef: string; takenAt: string }): TakePaymentBody {
  const amount = parseAmount(input.amountText);
  if (amount === null) throw new Error(`Not an amount: ${input.amountText}`);
  return { type: input.type, amount, currency: input.currency as TakePaymentBody['currency'], device: input.device || undefined, paymentRef: input.paymentRef, takenAt: input.takenAt };
}
