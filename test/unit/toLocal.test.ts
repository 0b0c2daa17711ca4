import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { LOCAL_FORMAT, toLocal } from '../../main/domain/time';

describe('toLocal', () => {
  it('formats exactly like luxon toFormat(yyyy-MM-dd HH:mm:ss) in any zone, across DST changes', () => {
    const zones = ['Australia/Sydney', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC', 'Pacific/Chatham'];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) }), fc.constantFrom(...zones), (ms, zone) => {
        expect(toLocal(ms, zone)).toBe(DateTime.fromMillis(ms, { zone }).toFormat(LOCAL_FORMAT));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fromLocal in the repeated hour when clocks go back', () => {
  it('takes the first occurrence in every zone, and round-trips through toLocal', async () => {
    const { fromLocal } = await import('../../main/domain/time');
    const cases: [string, string, string][] = [
      ['Europe/Berlin', '2030-10-27 02:30:00', '2030-10-27T00:30:00.000Z'],
      ['Australia/Sydney', '2030-04-07 02:30:00', '2030-04-06T15:30:00.000Z'],
      ['America/New_York', '2030-11-03 01:30:00', '2030-11-03T05:30:00.000Z'],
      ['Australia/Lord_Howe', '2030-04-07 01:45:00', '2030-04-06T14:45:00.000Z'],
    ];
    for (const [zone, local, iso] of cases) {
      const ms = fromLocal(local, zone);
      expect(new Date(ms).toISOString(), zone).toBe(iso);
      expect(toLocal(ms, zone)).toBe(local);
    }
    expect(new Date(fromLocal('2030-07-01 09:00:00', 'Europe/Berlin')).toISOString()).toBe('2030-07-01T07:00:00.000Z');
  });
});
