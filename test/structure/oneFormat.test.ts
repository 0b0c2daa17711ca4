import { describe, expect, it } from 'vitest';
import { readSource, sourceFiles } from './sourceTree';

/**
 * Dates, times and money reach a person through one module (main/domain/format.ts), in the
 * company's locale and zone: a screen that called toLocale* or Intl itself would write in the
 * browser's locale and zone beside the company's. The renderer's own wrapper of the module
 * (renderer/src/lib/formats.ts) passes the company's locale and zone to it.
 */
const FORMATTING = /\.toLocale(String|DateString|TimeString)\s*\(|\bIntl\s*\.\s*(DateTimeFormat|NumberFormat|RelativeTimeFormat)\b|\bnew\s+Intl\b/;

describe('one format', () => {
  it('no renderer file formats dates, times, money or counts with toLocale* or Intl directly', () => {
    const offenders = sourceFiles(['renderer/src']).filter((file) => FORMATTING.test(readSource(file).replace(/^\s*(\/\/|\*).*$/gm, '')));
    expect(offenders).toEqual([]);
  });

  it('the probe finds each way of formatting directly', () => {
    for (const line of ['d.toLocaleString()', 'd.toLocaleTimeString([], {})', 'x.toLocaleDateString()', 'new Intl.DateTimeFormat(undefined)', 'Intl.NumberFormat(undefined)', 'new Intl.RelativeTimeFormat()']) expect(FORMATTING.test(line), line).toBe(true);
    expect(FORMATTING.test('formats.dateTime(booking.dateCreated)')).toBe(false);
  });
});
