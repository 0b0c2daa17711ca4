import { DomainError } from './errors';

/**
 * Money is integer minor units inside TourDesk, with the currency's own ISO 4217 exponent.
 * Conversion happens once, at the API edge, rounding half away from zero.
 */
export { CURRENCIES, type Currency } from '../contract/enums';

const ZERO_DIGITS = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DIGITS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function currencyExponent(currency: string): number {
  if (ZERO_DIGITS.has(currency)) return 0;
  if (THREE_DIGITS.has(currency)) return 3;
  return 2;
}

/** Half away from zero, after removing binary noise (1.005 × 100 is 100.49999… in floating point). */
function roundHalfUp(value: number): number {
  const cleaned = Number(value.toPrecision(15));
  return Math.sign(cleaned) * Math.round(Math.abs(cleaned));
}

export function toMinor(amount: number, currency: string): number {
  if (!Number.isFinite(amount)) throw new DomainError('VALIDATION_ERROR', `Amount ${amount} is not a number`);
  const minor = roundHalfUp(amount * 10 ** currencyExponent(currency));
  if (!Number.isSafeInteger(minor)) throw new DomainError('VALIDATION_ERROR', `Amount ${amount} is too large`);
  return minor;
}

const SCALE = [1, 10, 100, 1000];

export function fromMinor(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  // For a safe integer the division already is the nearest double to the decimal amount, which is
  // what the toFixed round trip answers (lists convert thousands of amounts); `+ 0` turns -0 into 0
  // as Number("-0.00") does.
  if (Number.isSafeInteger(minor)) return minor / SCALE[exponent] + 0;
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

/** Rounds a fractional minor amount (e.g. a percentage of a price) once, half-up. */
export function roundMinor(value: number): number {
  return roundHalfUp(value);
}
