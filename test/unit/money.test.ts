import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { currencyExponent, fromMinor, roundMinor, toMinor } from '../../main/domain/money';

describe('money in minor units', () => {
  it('uses the currency exponent of ISO 4217', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('BHD')).toBe(3);
  });

  it('converts to minor units rounding half up, without floating-point noise', () => {
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor(0.125, 'EUR')).toBe(13);
    expect(toMinor(1500.5, 'JPY')).toBe(1501);
    expect(toMinor(1.2345, 'KWD')).toBe(1235);
    expect(toMinor(-1.005, 'USD')).toBe(-101);
  });

  it('converts back to major units', () => {
    expect(fromMinor(1999, 'USD')).toBe(19.99);
    expect(fromMinor(1501, 'JPY')).toBe(1501);
    expect(fromMinor(1235, 'KWD')).toBe(1.235);
  });

  it('rounds a fractional minor amount once, half up', () => {
    expect(roundMinor(12.5)).toBe(13);
    expect(roundMinor(12.4999999999999)).toBe(12);
  });

  it('refuses amounts that are not finite', () => {
    expect(() => toMinor(Number.NaN, 'USD')).toThrow();
    expect(() => toMinor(Number.POSITIVE_INFINITY, 'USD')).toThrow();
  });
});

describe('fromMinor', () => {
  const viaToFixed = (minor: number, exponent: number) => Number((minor / 10 ** exponent).toFixed(exponent));

  it('answers what the decimal round trip answers, for any safe integer amount and exponent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1e12, max: 1e12 })), fc.constantFrom('JPY', 'EUR', 'KWD'), (minor, currency) => {
        expect(Object.is(fromMinor(minor, currency), viaToFixed(minor, currencyExponent(currency)))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('answers 0, not -0, for a negative zero', () => {
    expect(Object.is(fromMinor(-0, 'EUR'), 0)).toBe(true);
  });

  it('rounds a fractional minor amount to the currency exponent as before', () => {
    expect(fromMinor(1234.5, 'EUR')).toBe(viaToFixed(1234.5, 2));
    expect(fromMinor(0.4, 'JPY')).toBe(0);
  });
});
