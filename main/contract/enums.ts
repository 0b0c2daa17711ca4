/**
 * The API's enumerations: the contract owns them, the domain and the database queries use them.
 */

/** Booking statuses (api-facts.md's list). Live ones hold seats; CANCELLED and ABANDONED_CART do not. */
export const BOOKING_STATUSES = ['PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER', 'CONFIRMED', 'CANCELLED', 'ABANDONED_CART'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const LIVE_STATUSES = ['PROCESSING', 'NEW', 'ON_HOLD', 'PENDING_SUPPLIER', 'PENDING_CUSTOMER', 'CONFIRMED'] as const satisfies readonly BookingStatus[];

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

export const EVENT_KINDS = ['CHECK_IN', 'UNDO', 'NO_SHOW', 'CLOSE', 'REOPEN'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const VOUCHER_VALUE_TYPES = ['VALUE', 'VALUE_LIMITPRODUCT', 'VALUE_LIMITCATALOG', 'PERCENT', 'PERCENT_LIMITPRODUCT', 'PERCENT_LIMITCATALOG', 'PRODUCT'] as const;
