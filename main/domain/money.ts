import { DomainError } from './errors';

/**
 * Money is integer minor units inside TourDesk, with the currency's own ISO 4217 exponent.
 * Conversion happens once, at the API edge, rounding half away from zero.
 */
export const CURRENCIES = [
  'AED', 'ANG', 'ARS', 'AUD', 'AWG', 'AZN', 'BGN', 'BHD', 'BOB', 'BRL', 'BYR', 'CAD', 'CHF', 'CLP', 'CNY', 'COP', 'CZK',
  'DKK', 'EGP', 'EUR', 'FJD', 'GBP', 'GEL', 'HKD', 'HRK', 'HUF', 'IDR', 'ILS', 'INR', 'ISK', 'JOD', 'JPY', 'KES', 'KRW',
  'KWD', 'KZT', 'LTL', 'LVL', 'MAD', 'MKD', 'MUR', 'MXN', 'MYR', 'NGN', 'NOK', 'NZD', 'PGK', 'PHP', 'OMR', 'PEN', 'PLN',
  'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'SAR', 'SBD', 'SEK', 'SGD', 'SRD', 'SYP', 'THB', 'TOP', 'TRY', 'TWD', 'UAH', 'USD',
  'UYU', 'VEF', 'VUV', 'WST', 'XAF', 'XOF', 'XPF', 'YER', 'ZAR', 'AFA', 'ALL', 'DZD', 'AMD', 'BSD', 'BDT', 'BBD', 'BZD',
  'BMD', 'BWP', 'BND', 'BIF', 'KHR', 'CVE', 'KYD', 'KMF', 'BAM', 'CRC', 'CUP', 'CYP', 'DJF', 'DOP', 'XCD', 'ECS', 'SVC',
  'ERN', 'EEK', 'ETB', 'FKP', 'CDF', 'GMD', 'GHS', 'GIP', 'GTQ', 'GNF', 'GWP', 'GYD', 'HTG', 'HNL', 'IRR', 'IQD', 'JMD',
  'AOA', 'KGS', 'KIP', 'LAK', 'LBP', 'LRD', 'LYD', 'LSL', 'MOP', 'MGF', 'MGA', 'MWK', 'MVR', 'MTL', 'MRO', 'MDL', 'MNT',
  'MZM', 'MMK', 'NAD', 'NPR', 'NIO', 'KPW', 'PKR', 'PAB', 'RWF', 'STD', 'SCR', 'SLL', 'SKK', 'SIT', 'SOS', 'LKR', 'SHP',
  'SDD', 'SZL', 'TJS', 'TZS', 'TTD', 'TND', 'TMM', 'UGX', 'UZS', 'VND', 'YUM', 'ZMK', 'ZWD', 'AFN', 'MZN', 'UYI', 'ZMW',
  'GHC', 'GGP', 'IMP', 'JEP', 'TRL', 'TVD',
] as const;
export type Currency = (typeof CURRENCIES)[number];

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
