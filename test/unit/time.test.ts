import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DateTime } from 'luxon';
import { fromIso, fromLocal, LOCAL_FORMAT, parseTimeParam, toIso, toLocal } from '../../main/domain/time';
import { isoInstantMs } from '../../main/contract/common';

const SYD = 'Australia/Sydney';
const BER = 'Europe/Berlin';

describe('local times', () => {
  it('round-trips a local time in the zone', () => {
    const ms = fromLocal('2030-01-15 09:00:00', SYD);
    expect(new Date(ms).toISOString()).toBe('2030-01-14T22:00:00.000Z');
    expect(toLocal(ms, SYD)).toBe('2030-01-15 09:00:00');
  });

  it('keeps 09:00 local on both sides of a DST change (UTC shifts by an hour)', () => {
    const before = fromLocal('2030-03-30 09:00:00', BER);
    const after = fromLocal('2030-03-31 09:00:00', BER);
    expect(after - before).toBe(23 * 3600_000);
    expect(toLocal(after, BER)).toBe('2030-03-31 09:00:00');
  });

  it('refuses a local time the clocks skip', () => {
    expect(() => fromLocal('2030-03-31 02:30:00', BER)).toThrow(/does not exist/);
  });

  it('refuses an impossible date', () => {
    expect(() => fromLocal('2030-02-30 10:00:00', SYD)).toThrow();
    expect(() => fromLocal('tomorrow', SYD)).toThrow(/yyyy-MM-dd HH:mm:ss/);
  });

  it('reads ISO instants with Z or an offset and refuses ones without', () => {
    expect(fromIso('2030-01-01T10:00:00Z')).toBe(Date.UTC(2030, 0, 1, 10));
    expect(fromIso('2030-01-01T20:00:00+10:00')).toBe(Date.UTC(2030, 0, 1, 10));
    expect(() => fromIso('2030-01-01T10:00:00')).toThrow();
  });
});

describe('toLocal gives what luxon gives, from an offset kept per hour', () => {
  // Zones with half- and quarter-hour offsets, a 30-minute DST shift, southern-hemisphere DST, a
  // zone that skipped a whole day (Apia, 2011) and historic local mean time (fractional offsets).
  const ZONES = [
    'Australia/Sydney', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Kolkata',
    'Pacific/Chatham', 'America/St_Johns', 'Pacific/Apia', 'America/Sao_Paulo', 'Europe/London', 'Africa/Casablanca', 'UTC',
  ];
  const luxon = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat(LOCAL_FORMAT);

  it('at any instant from 1850 to 2100 in any of these zones', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...ZONES), (ms, zone) => {
        expect(toLocal(ms, zone)).toBe(luxon(ms, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it('on both sides of every clock change from 2009 to 2031, to the millisecond', () => {
    let changes = 0;
    for (const zone of ZONES) {
      // Days whose offset differs from the next day's hold a change: found to the second by halving.
      for (let day = Date.UTC(2009, 0, 1); day < Date.UTC(2031, 0, 1); day += 86_400_000) {
        if (DateTime.fromMillis(day, { zone }).offset === DateTime.fromMillis(day + 86_400_000, { zone }).offset) continue;
        let [low, high] = [day, day + 86_400_000];
        const before = DateTime.fromMillis(low, { zone }).offset;
        while (high - low > 1000) {
          const mid = low + Math.floor((high - low) / 2000) * 1000;
          if (DateTime.fromMillis(mid, { zone }).offset === before) low = mid;
          else high = mid;
        }
        changes++;
        for (const delta of [-3_600_000, -1_800_000, -60_000, -1001, -1000, -1, 0, 1, 999, 1000, 59_999, 60_000, 1_799_999, 1_800_000, 3_599_999, 3_600_000]) {
          expect(toLocal(high + delta, zone)).toBe(luxon(high + delta, zone));
        }
      }
    }
    expect(changes).toBeGreaterThan(200);
  });

  it('as luxon for a zone it refuses and for years it cannot write in four digits', () => {
    expect(toLocal(0, 'Not/A_Zone')).toBe(luxon(0, 'Not/A_Zone'));
    for (const ms of [Date.UTC(999, 11, 31, 23), Date.UTC(10000, 0, 1, 1), -62_200_000_000_000]) expect(toLocal(ms, 'Australia/Sydney')).toBe(luxon(ms, 'Australia/Sydney'));
  });
});

describe('time query parameters (one parser for every endpoint)', () => {
  const cases: [string, 'lower' | 'upper', string][] = [
    ['2030-01-02', 'lower', '2030-01-01T13:00:00.000Z'],
    ['2030-01-02', 'upper', '2030-01-02T12:59:59.999Z'],
    ['2030-01-02 09:30:00', 'lower', '2030-01-01T22:30:00.000Z'],
    ['2030-01-02T09:30:00Z', 'lower', '2030-01-02T09:30:00.000Z'],
    ['2030-01-02T09:30:00+02:00', 'lower', '2030-01-02T07:30:00.000Z'],
    ['2030-01-02T09:30:00 02:00', 'lower', '2030-01-02T07:30:00.000Z'],
    ['2030-01-02T09:30:00-0500', 'upper', '2030-01-02T14:30:00.000Z'],
  ];
  it.each(cases)('reads %s as a %s bound', (raw, bound, iso) => {
    expect(new Date(parseTimeParam(raw, SYD, bound, 'startTime')).toISOString()).toBe(iso);
  });

  it('covers the whole of a DST-change day as an upper bound', () => {
    // 6 April 2030 is the last day of daylight time in Sydney: the day has 25 hours.
    const start = parseTimeParam('2030-04-07', SYD, 'lower', 'x');
    const end = parseTimeParam('2030-04-07', SYD, 'upper', 'x');
    expect(end - start + 1).toBe(25 * 3600_000);
  });

  it('refuses what it cannot read, naming the parameter', () => {
    expect(() => parseTimeParam('next tuesday', SYD, 'lower', 'minTourStartTime')).toThrow(/minTourStartTime/);
    expect(() => parseTimeParam('2030-13-01', SYD, 'lower', 'x')).toThrow();
  });
});

describe('parseTimeParam memoisation', () => {
  it('answers the same instant on a repeated call, per zone and bound', () => {
    const first = parseTimeParam('2030-02-02', SYD, 'lower', 'startTime');
    expect(parseTimeParam('2030-02-02', SYD, 'lower', 'startTime')).toBe(first);
    expect(parseTimeParam('2030-02-02', BER, 'lower', 'startTime')).toBe(Date.parse('2030-02-01T23:00:00Z'));
    expect(parseTimeParam('2030-02-02', SYD, 'upper', 'startTime')).toBe(Date.parse('2030-02-02T13:00:00Z') - 1);
    expect(first).toBe(Date.parse('2030-02-01T13:00:00Z'));
  });

  it('names the field of each call in its error, also for a text refused before', () => {
    expect(() => parseTimeParam('2030-02-30', SYD, 'lower', 'startTime')).toThrow(/startTime/);
    expect(() => parseTimeParam('2030-02-30', SYD, 'lower', 'endTimeLocal')).toThrow(/endTimeLocal/);
  });
});

describe('toIso', () => {
  it('drops the milliseconds of a whole second and keeps them otherwise', () => {
    expect(toIso(Date.parse('2030-01-01T00:00:00Z'))).toBe('2030-01-01T00:00:00Z');
    expect(toIso(Date.parse('2030-01-01T00:00:01.500Z'))).toBe('2030-01-01T00:00:01.500Z');
    expect(toIso(Date.parse('2030-01-01T00:00:01.000Z') + 1)).toBe('2030-01-01T00:00:01.001Z');
  });

  it('answers the same text when asked again (memoised), for any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
        const expected = new Date(ms).toISOString().replace('.000Z', 'Z');
        expect(toIso(ms)).toBe(expected);
        expect(toIso(ms)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ISO-8601 instants read without luxon (isoInstantMs)', () => {
  /** What the API accepted before: the pattern, then luxon decides. */
  const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
  const byLuxon = (text: string): number | null => {
    const trimmed = text.trim();
    if (!ISO_INSTANT.test(trimmed)) return null;
    const dt = DateTime.fromISO(trimmed, { setZone: true });
    return dt.isValid ? dt.toMillis() : null;
  };
  const two = (n: number) => String(n).padStart(2, '0');

  it('reads what toISOString writes as luxon does, for any instant of years 0001-9999', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), fc.integer({ min: 0, max: 3 }), (date, digits) => {
        const whole = date.toISOString();
        const text = digits === 3 ? whole : whole.replace(/\.\d{3}Z$/, digits === 0 ? 'Z' : `.${whole.slice(20, 20 + digits)}Z`);
        expect(isoInstantMs(text)).toBe(byLuxon(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the form toISOString writes without luxon, and leaves every other form to it', () => {
    const parse = vi.spyOn(DateTime, 'fromISO');
    try {
      expect(isoInstantMs('2030-07-14T09:41:07.250Z')).toBe(Date.UTC(2030, 6, 14, 9, 41, 7, 250));
      expect(isoInstantMs('2030-07-14T09:41:07Z')).toBe(Date.UTC(2030, 6, 14, 9, 41, 7));
      expect(parse).not.toHaveBeenCalled();
      expect(isoInstantMs('2030-07-14T19:41:07+10:00')).toBe(Date.UTC(2030, 6, 14, 9, 41, 7));
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('agrees with luxon on every field out of range, and on each fraction of a second', () => {
    fc.assert(
      fc.property(
        fc.record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.integer({ min: 0, max: 19 }), day: fc.integer({ min: 0, max: 39 }), hour: fc.integer({ min: 0, max: 29 }), minute: fc.integer({ min: 0, max: 69 }), second: fc.integer({ min: 0, max: 69 }) }),
        ({ year, month, day, hour, minute, second }) => {
          const text = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}Z`;
          expect(isoInstantMs(text)).toBe(byLuxon(text));
        },
      ),
      { numRuns: 5000 },
    );
    for (let f = 0; f < 1000; f++) for (const fraction of [String(f).padStart(3, '0'), String(f % 100).padStart(2, '0'), String(f % 10)]) {
      const text = `2030-02-28T23:59:59.${fraction}Z`;
      expect(isoInstantMs(text)).toBe(byLuxon(text));
    }
    for (const text of ['2028-02-29T12:00:00Z', '2100-02-29T12:00:00Z', '2000-02-29T12:00:00Z', '2030-01-01T24:00:00Z', '2030-06-30T23:59:60Z', ' 2030-01-01T10:00:00Z ', '2030-01-01t10:00:00z', '2030-01-01T10:00:00.1234Z', '2030-01-01T10:00Z', '2030-01-01T20:00:00+10:00', '2030-01-01T10:00:00']) {
      expect(isoInstantMs(text)).toBe(byLuxon(text));
    }
  });
});
