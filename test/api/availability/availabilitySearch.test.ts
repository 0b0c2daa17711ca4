import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingHolding, aProduct, aSession } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const product = async (overrides = {}) => (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;
const batch = async (sessions: Record<string, unknown>[]) => {
  const res = await t.call('POST', '/v1/availability/batch', { body: sessions });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sessions;
};
/** Daily sessions at a local time over consecutive dates. */
const daily = (code: string, from: string, days: number, time = '09:00:00', extra = {}) =>
  Array.from({ length: days }, (_, i) => {
    const date = new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
    return aSession(code, { startTimeLocal: `${date} ${time}`, ...extra });
  });
const search = async (query: string, role?: 'agent' | 'checkin') => {
  const res = await t.call('GET', `/v1/availability?${query}`, role ? { role } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.sessions as any[];
};
const expectRefused = expectError;

describe('GET /v1/availability', () => {
  it('answers the sessions of every productCode sent (repeatable), ordered by start', async () => {
    const a = await product();
    const b = await product();
    await batch([...daily(a.productCode, '2030-02-01', 2, '10:00:00'), ...daily(b.productCode, '2030-02-01', 2, '09:00:00')]);
    const sessions = await search(`productCode=${a.productCode}&productCode=${b.productCode}&startTime=2030-02-01&endTime=2030-02-02`);
    expect(sessions.map((s) => [s.productCode, s.startTimeLocal])).toEqual([
      [b.productCode, '2030-02-01 09:00:00'],
      [a.productCode, '2030-02-01 10:00:00'],
      [b.productCode, '2030-02-02 09:00:00'],
      [a.productCode, '2030-02-02 10:00:00'],
    ]);
    expect(Object.keys(sessions[0]).sort()).toEqual(['allDay', 'endTime', 'endTimeLocal', 'id', 'priceOptions', 'productCode', 'seats', 'seatsAvailable', 'startTime', 'startTimeLocal']);
  });

  it('lets agent and checkin keys read availability', async () => {
    const p = await product();
    await batch(daily(p.productCode, '2030-02-01', 1));
    expect(await search(`productCode=${p.productCode}`, 'agent')).toHaveLength(1);
    expect(await search(`productCode=${p.productCode}`, 'checkin')).toHaveLength(1);
  });

  it('answers 401 without a key', async () => {
    const p = await product();
    expectRefused(await t.call('GET', `/v1/availability?productCode=${p.productCode}`, { role: null }), 401, 'UNAUTHORIZED');
  });

  it('is described in /v1/openapi.json, with the id form marked deprecated', async () => {
    const paths = (await t.call('GET', '/v1/openapi.json')).body.paths;
    expect(paths['/v1/availability/{sessionId}'].put.deprecated).toBe(true);
    expect(paths['/v1/availability/product/{productCode}/startTimeLocal/{startTimeLocal}'].put.deprecated).toBeUndefined();
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/v1/availability', '/v1/availability/batch', '/v1/resources/session', '/v1/resources/{resourceId}/sessions']));
  });

  it('without a start, lists from the beginning of today in the product timezone', async () => {
    t.clock.set('2030-01-10T03:00:00Z'); // 14:00 on 10 January in Sydney
    const p = await product();
    await batch([aSession(p.productCode, { startTimeLocal: '2030-01-09 09:00:00' }), aSession(p.productCode, { startTimeLocal: '2030-01-10 09:00:00' })]);
    expect((await search(`productCode=${p.productCode}`)).map((s) => s.startTimeLocal)).toEqual(['2030-01-10 09:00:00']);
    t.clock.set('2030-01-01T00:00:00Z');
  });

  it('filters on minAvailability using the seats live bookings hold, and pages after filtering', async () => {
    const p = await product();
    const sessions = await batch(daily(p.productCode, '2030-02-01', 4, '09:00:00', { seats: 10 }));
    aBookingHolding(t.sql, sessions[0].id, 8);
    aBookingHolding(t.sql, sessions[2].id, 5);
    aBookingHolding(t.sql, sessions[3].id, 9, 'CANCELLED');
    const q = `productCode=${p.productCode}&startTime=2030-02-01&endTime=2030-02-28`;
    expect((await search(`${q}&minAvailability=5`)).map((s) => s.seatsAvailable)).toEqual([10, 5, 10]);
    expect((await search(`${q}&minAvailability=6`)).map((s) => s.startTimeLocal)).toEqual(['2030-02-02 09:00:00', '2030-02-04 09:00:00']);
    expect((await search(`${q}&minAvailability=6&limit=1&offset=1`)).map((s) => s.startTimeLocal)).toEqual(['2030-02-04 09:00:00']);
    expect(await search(`${q}&minAvailability=11`)).toEqual([]);
    expectRefused(await t.call('GET', `/v1/availability?${q}&minAvailability=-1`), 400, 'VALIDATION_ERROR');
  });

  describe('time query forms (all through parseTimeParam)', () => {
    let code: string;
    const starts = async (range: string) => (await search(`productCode=${code}&${range}`)).map((s) => s.startTimeLocal);
    beforeAll(async () => {
      code = (await product()).productCode;
      await batch([...daily(code, '2030-02-01', 3, '09:00:00'), ...daily(code, '2030-02-01', 3, '23:30:00')]);
    });

    it('a date alone as lower bound starts at local midnight; as upper bound it covers the whole day', async () => {
      expect(await starts('startTime=2030-02-02&endTime=2030-02-02')).toEqual(['2030-02-02 09:00:00', '2030-02-02 23:30:00']);
    });
    it('yyyy-MM-dd HH:mm:ss is local time', async () => {
      expect(await starts('startTime=2030-02-01%2010:00:00&endTime=2030-02-02%2009:00:00')).toEqual(['2030-02-01 23:30:00', '2030-02-02 09:00:00']);
    });
    it('ISO with Z', async () => {
      expect(await starts('startTime=2030-02-01T12:30:00Z&endTime=2030-02-01T22:00:00Z')).toEqual(['2030-02-01 23:30:00', '2030-02-02 09:00:00']);
    });
    it('ISO with an offset', async () => {
      expect(await starts('startTime=2030-02-01T23:30:00%2B11:00&endTime=2030-02-02T09:00:00%2B11:00')).toEqual(['2030-02-01 23:30:00', '2030-02-02 09:00:00']);
    });
    it('ISO with an offset whose + arrived as a space', async () => {
      expect(await starts('startTime=2030-02-01T23:30:00+11:00&endTime=2030-02-02T09:00:00+11:00')).toEqual(['2030-02-01 23:30:00', '2030-02-02 09:00:00']);
    });
    it('startTimeLocal and endTimeLocal', async () => {
      expect(await starts('startTimeLocal=2030-02-03&endTimeLocal=2030-02-03%2012:00:00')).toEqual(['2030-02-03 09:00:00']);
    });
    it('refuses an unparseable time (400) and an end before the start (400)', async () => {
      expectRefused(await t.call('GET', `/v1/availability?productCode=${code}&startTime=soon`), 400, 'INVALID_TIME');
      expectRefused(await t.call('GET', `/v1/availability?productCode=${code}&startTime=2030-02-03&endTime=2030-02-01`), 400, 'VALIDATION_ERROR');
    });
  });

  it('clamps limit=1000 to 100, pages with offset, and refuses a bad limit or offset with 400', async () => {
    const p = await product();
    await batch(daily(p.productCode, '2030-03-01', 120));
    const q = `productCode=${p.productCode}&startTime=2030-03-01&endTime=2030-12-31`;
    expect(await search(`${q}&limit=1000`)).toHaveLength(100);
    expect(await search(q)).toHaveLength(100);
    const last = await search(`${q}&limit=100&offset=100`);
    expect(last).toHaveLength(20);
    expect(last[0].startTimeLocal).toBe('2030-06-09 09:00:00');
    for (const bad of ['limit=abc', 'limit=-1', 'offset=x', 'offset=-3']) expectRefused(await t.call('GET', `/v1/availability?${q}&${bad}`), 400, 'VALIDATION_ERROR');
  });

  it('accepts a trailing slash, ignores unknown and empty parameters', async () => {
    const p = await product();
    await batch(daily(p.productCode, '2030-02-01', 1));
    const res = await t.call('GET', `/v1/availability/?productCode=${p.productCode}&colour=blue&minAvailability=&endTime`);
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(1);
  });

  it('refuses a search without productCode (400) and answers 404 for an unknown product', async () => {
    expectRefused(await t.call('GET', '/v1/availability?startTime=2030-02-01'), 400, 'VALIDATION_ERROR');
    expectRefused(await t.call('GET', '/v1/availability?productCode=PNOPE00'), 404, 'NOT_FOUND');
  });

  it('answers 200 with an empty list when nothing is in range', async () => {
    const p = await product();
    expect(await search(`productCode=${p.productCode}&startTime=2031-01-01&endTime=2031-01-02`)).toEqual([]);
  });

  describe('products without inventory (NO_DATE, DATE_ENQUIRY)', () => {
    it('answer one synthetic all-day session per local date in range with 999 seats', async () => {
      for (const bookingMode of ['NO_DATE', 'DATE_ENQUIRY']) {
        const p = await product({ bookingMode });
        const sessions = await search(`productCode=${p.productCode}&startTime=2030-02-01&endTime=2030-02-03`);
        expect(sessions.map((s) => s.startTimeLocal)).toEqual(['2030-02-01 00:00:00', '2030-02-02 00:00:00', '2030-02-03 00:00:00']);
        expect(sessions[0]).toMatchObject({ productCode: p.productCode, allDay: true, seats: 999, seatsAvailable: 999, endTimeLocal: '2030-02-02 00:00:00', startTime: '2030-01-31T13:00:00Z' });
        expect(sessions[0].id).toBeUndefined();
        expect(sessions[0].priceOptions.map((o: any) => o.label)).toEqual(['Adult', 'Child']);
      }
    });

    it('cover 30 dates from the start when no end is given, and at most 366 dates (with a warning)', async () => {
      const p = await product({ bookingMode: 'NO_DATE' });
      const open = await search(`productCode=${p.productCode}&startTime=2030-02-01&limit=100`);
      expect(open).toHaveLength(30);
      expect(open[29].startTimeLocal).toBe('2030-03-02 00:00:00');
      const long = await t.call('GET', `/v1/availability?productCode=${p.productCode}&startTime=2030-01-01&endTime=2032-12-31&offset=365&limit=5`);
      expect(long.body.sessions.map((s: any) => s.startTimeLocal)).toEqual(['2031-01-01 00:00:00']);
      expect(long.body.requestStatus.warning.warningMessage).toContain('366');
    });

    it('merge with stored sessions in start order, and are dropped by a minAvailability above 999', async () => {
      const stored = await product();
      const open = await product({ bookingMode: 'NO_DATE' });
      await batch(daily(stored.productCode, '2030-02-01', 2));
      const q = `productCode=${stored.productCode}&productCode=${open.productCode}&startTime=2030-02-01&endTime=2030-02-02`;
      expect((await search(q)).map((s) => [s.productCode === open.productCode ? 'open' : 'stored', s.startTimeLocal])).toEqual([
        ['open', '2030-02-01 00:00:00'],
        ['stored', '2030-02-01 09:00:00'],
        ['open', '2030-02-02 00:00:00'],
        ['stored', '2030-02-02 09:00:00'],
      ]);
      expect((await search(`${q}&minAvailability=1000`)).map((s) => s.productCode)).toEqual([]);
    });
  });
});

describe('daylight saving: a daily 09:00 departure stays 09:00 local and its UTC instant shifts by an hour', () => {
  const check = async (zone: string | undefined, from: string, expected: string[]) => {
    const p = await product(zone ? { timezone: zone } : {});
    const created = await batch(daily(p.productCode, from, 2));
    expect(created.map((s: any) => s.startTimeLocal)).toEqual([`${from} 09:00:00`, expect.stringMatching(/ 09:00:00$/)]);
    const nextDay = created[1].startTimeLocal.slice(0, 10);
    const found = await search(`productCode=${p.productCode}&startTimeLocal=${from}&endTimeLocal=${nextDay}`);
    expect(found.map((s) => s.startTimeLocal.slice(11))).toEqual(['09:00:00', '09:00:00']);
    expect(found.map((s) => s.startTime)).toEqual(expected);
    // Round trip: the local start names the same session for an update.
    const res = await t.call('PUT', `/v1/availability/product/${p.productCode}/startTimeLocal/${encodeURIComponent(found[1].startTimeLocal)}`, { body: { seats: 5 } });
    expect(res.body.session).toMatchObject({ id: found[1].id, startTime: expected[1], seats: 5 });
  };

  it('Australia/Sydney (the company zone), first Sunday of April: clocks go back', () => check(undefined, '2030-04-06', ['2030-04-05T22:00:00Z', '2030-04-06T23:00:00Z']));
  it('Australia/Sydney, first Sunday of October: clocks go forward', () => check('Australia/Sydney', '2030-10-05', ['2030-10-04T23:00:00Z', '2030-10-05T22:00:00Z']));
  it('Europe/Berlin, last Sunday of March: clocks go forward', () => check('Europe/Berlin', '2030-03-30', ['2030-03-30T08:00:00Z', '2030-03-31T07:00:00Z']));
  it('Europe/Berlin, last Sunday of October: clocks go back', () => check('Europe/Berlin', '2030-10-26', ['2030-10-26T07:00:00Z', '2030-10-27T08:00:00Z']));

  it('names a session in the repeated hour of the Berlin autumn change by its local start (either occurrence)', async () => {
    const p = await product({ timezone: 'Europe/Berlin' });
    const [firstOccurrence] = await batch([aSession(p.productCode, { startTimeLocal: undefined, startTime: '2030-10-27T00:30:00Z' })]);
    const [second] = await batch([aSession(p.productCode, { startTimeLocal: undefined, startTime: '2030-10-27T01:30:00Z' })]);
    expect([firstOccurrence.startTimeLocal, second.startTimeLocal]).toEqual(['2030-10-27 02:30:00', '2030-10-27 02:30:00']);
    const url = `/v1/availability/product/${p.productCode}/startTimeLocal/2030-10-27%2002:30:00`;
    expect((await t.call('PUT', url, { body: { seats: 3 } })).body.session).toMatchObject({ id: firstOccurrence.id, seats: 3 });
    expect((await t.call('DELETE', url)).status).toBe(200);
    expect((await t.call('PUT', url, { body: { seats: 4 } })).body.session).toMatchObject({ id: second.id, startTime: '2030-10-27T01:30:00Z', seats: 4 });
  });

  it('refuses 02:30 on the Berlin spring-forward day (it does not exist) with 400, in a batch too', async () => {
    const p = await product({ timezone: 'Europe/Berlin' });
    const before = t.snapshot('sessions');
    const res = await t.call('POST', '/v1/availability/batch', { body: [aSession(p.productCode, { startTimeLocal: '2030-03-30 02:30:00' }), aSession(p.productCode, { startTimeLocal: '2030-03-31 02:30:00' })] });
    expectRefused(res, 400, 'INVALID_TIME');
    expect(res.body.requestStatus.error.errorMessage).toContain('sessions[1]');
    expect(t.snapshot('sessions')).toEqual(before);
  });
});

describe('GET /v1/availability across products in different timezones', () => {
  it('applies each product its own local bounds (the day in Berlin is not the day in Sydney), in start order', async () => {
    const sydney = await product();
    const otherSydney = await product();
    const berlin = await product({ timezone: 'Europe/Berlin' });
    await batch([
      ...daily(sydney.productCode, '2030-02-01', 3, '09:00:00'),
      ...daily(otherSydney.productCode, '2030-02-01', 3, '10:00:00'),
      ...daily(berlin.productCode, '2030-02-01', 3, '09:00:00'),
    ]);
    const codes = [sydney, otherSydney, berlin].map((p) => `productCode=${p.productCode}`).join('&');
    const found = await search(`${codes}&startTimeLocal=2030-02-02&endTimeLocal=2030-02-02`);
    expect(found.map((s) => [s.productCode, s.startTimeLocal, s.startTime])).toEqual([
      [sydney.productCode, '2030-02-02 09:00:00', '2030-02-01T22:00:00Z'],
      [otherSydney.productCode, '2030-02-02 10:00:00', '2030-02-01T23:00:00Z'],
      [berlin.productCode, '2030-02-02 09:00:00', '2030-02-02T08:00:00Z'],
    ]);
    // The same search again (bounds now memoised) answers the same sessions.
    expect(await search(`${codes}&startTimeLocal=2030-02-02&endTimeLocal=2030-02-02`)).toEqual(found);
  });

  it('without a start, begins at the start of today in each product timezone', async () => {
    t.clock.set('2030-06-10T12:00:00Z'); // 22:00 on the 10th in Sydney, 14:00 on the 10th in Berlin
    try {
      const sydney = await product();
      const berlin = await product({ timezone: 'Europe/Berlin' });
      await batch([...daily(sydney.productCode, '2030-06-09', 3, '09:00:00'), ...daily(berlin.productCode, '2030-06-09', 3, '09:00:00')]);
      const found = await search(`productCode=${sydney.productCode}&productCode=${berlin.productCode}&endTimeLocal=2030-06-11`);
      expect(found.map((s) => [s.productCode, s.startTimeLocal])).toEqual([
        [sydney.productCode, '2030-06-10 09:00:00'],
        [berlin.productCode, '2030-06-10 09:00:00'],
        [sydney.productCode, '2030-06-11 09:00:00'],
        [berlin.productCode, '2030-06-11 09:00:00'],
      ]);
    } finally {
      t.clock.set('2030-01-01T00:00:00Z');
    }
  });
});
