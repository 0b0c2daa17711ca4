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
