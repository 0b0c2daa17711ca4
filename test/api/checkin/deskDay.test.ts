import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBooking, aProduct } from '../../fixtures/builders';

/**
 * The desk's day for the manager: GET /v1/manifest/week (departures and the day's totals, money taken
 * at the desk by payment type) and GET /v1/checkin/overrides (who admitted whom past which rule).
 * The test clock starts at 2030-01-01 11:00 in Sydney (the company's timezone).
 */
let t: TestApp;
let productCode: string;
let family: string;
let pair: string;
let familySession: number;
beforeAll(async () => {
  t = await startTestApp();
  const options = [{ label: 'Adult', price: 50 }, { label: 'Family (2+2)', price: 240, seatsUsed: 4, priceGroupType: 'TOTAL' }];
  productCode = (await t.call('POST', '/v1/products', { body: aProduct({ name: 'Harbour Cruise', priceOptions: options as never }) })).body.product.productCode;
  const session = async (startTimeLocal: string, seats: number) => (await t.call('POST', '/v1/availability', { body: { productCode, startTimeLocal, seats } })).body.session;
  const first = await session('2030-01-02 09:00:00', 10);
  const second = await session('2030-01-03 10:00:00', 8);
  familySession = first.id;
  const book = async (startTime: string, quantities: { optionLabel: string; value: number }[], payments: unknown[], names: string[]) => {
    const body = aBooking(productCode, startTime, quantities, { payments });
    body.items[0].participants = names.map((name) => ({ fields: [{ label: 'Full Name', value: name }] }));
    return (await t.call('POST', '/v1/bookings', { body })).body.booking.orderNumber as string;
  };
  family = await book(first.startTime, [{ optionLabel: 'Family (2+2)', value: 1 }], [{ type: 'CASH', amount: '240.00' }], ['Rosa Family']);
  pair = await book(first.startTime, [{ optionLabel: 'Adult', value: 2 }], [{ type: 'CREDITCARD', amount: '100.00' }], ['Ann Pair', 'Bo Pair']);
  await book(second.startTime, [{ optionLabel: 'Adult', value: 1 }], [{ type: 'CASH', amount: '20.00' }, { type: 'CASH', amount: '30.00' }], ['Cy Solo']);
  // The next morning the pair cancels at the desk (refunded), and the family is admitted an hour early.
  t.clock.set('2030-01-01T21:00:00Z');
  await t.call('DELETE', `/v1/bookings/${pair}`);
});
afterAll(() => t.close());

const participantsOf = async (sessionId: number) => (await t.call('GET', `/v1/manifest?sessionId=${sessionId}`)).body.manifest.bookings.flatMap((b: any) => b.participants.map((p: any) => ({ ...p, orderNumber: b.orderNumber })));

describe('GET /v1/manifest/week', () => {
  it("answers seven days from today by default, each with its departures and the day's totals", async () => {
    const { week } = (await t.call('GET', '/v1/manifest/week')).body;
    expect(week.from).toBe('2030-01-02');
    expect(week.timezone).toBe('Australia/Sydney');
    expect(week.days.map((d: any) => d.date)).toEqual(['2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05', '2030-01-06', '2030-01-07', '2030-01-08']);
    expect(week.days[0].departures).toEqual([{ sessionId: familySession, productCode, productName: 'Harbour Cruise', startTimeLocal: '2030-01-02 09:00:00', seatsSold: 4, capacity: 10, checkedIn: 0, noShow: 0 }]);
    expect(week.days[1].departures).toMatchObject([{ startTimeLocal: '2030-01-03 10:00:00', seatsSold: 1, capacity: 8 }]);
    expect(week.days[2]).toEqual({ date: '2030-01-04', departures: [], totals: { seatsSold: 0, checkedIn: 0, noShow: 0, moneyTaken: [] } });
  });

  it('totals the money the desk took each day by payment type, a refund against its own type', async () => {
    const { week } = (await t.call('GET', '/v1/manifest/week?from=2030-01-01')).body;
    expect(week.days[0].totals.moneyTaken).toEqual([
      { type: 'CASH', currency: 'AUD', amount: 290, payments: 3 },
      { type: 'CREDITCARD', currency: 'AUD', amount: 100, payments: 1 },
    ]);
    expect(week.days[1].totals.moneyTaken).toEqual([{ type: 'REFUND', currency: 'AUD', amount: -100, payments: 1 }]);
  });

  it("counts the day's check-ins and no-shows as the manifest does", async () => {
    const [rosa] = await participantsOf(familySession);
    const occurredAt = '2030-01-01T21:05:00Z';
    const events = [{ eventId: randomUUID(), kind: 'NO_SHOW', sessionId: familySession, participantId: rosa.id, occurredAt }];
    expect((await t.call('POST', '/v1/manifest/events', { role: 'checkin', body: { events } })).body.events[0].result).toBe('RECORDED');
    const day = (await t.call('GET', '/v1/manifest/week?from=2030-01-02')).body.week.days[0];
    expect(day.totals).toMatchObject({ seatsSold: 4, checkedIn: 0, noShow: 1 });
  });

  it('answers fewer days when asked (the board takes its one day), and refuses a count outside 1 to 7 with a 400 naming days', async () => {
    const one = (await t.call('GET', '/v1/manifest/week?from=2030-01-02&days=1')).body.week;
    expect(one.days.map((d: any) => d.date)).toEqual(['2030-01-02']);
    expect(one.days[0].totals.seatsSold).toBe(4);
    expect((await t.call('GET', '/v1/manifest/week?from=2030-01-02&days=3')).body.week.days).toHaveLength(3);
    for (const days of ['0', '8', 'two', '1.5']) {
      const refused = await t.call('GET', `/v1/manifest/week?days=${days}`);
      expect(refused.status, days).toBe(400);
      expect(refused.body.requestStatus.error.errorMessage, days).toMatch(/days/);
    }
  });

  it('takes the date forms every time parameter takes, and refuses one it cannot read with a 400 naming it', async () => {
    for (const from of ['2030-01-03', '2030-01-03%2010:00:00', '2030-01-03T01:00:00Z']) expect((await t.call('GET', `/v1/manifest/week/?from=${from}&utm=x`)).body.week.from, from).toBe('2030-01-03');
    const refused = await t.call('GET', '/v1/manifest/week?from=next-tuesday');
    expect(refused.status).toBe(400);
    expect(refused.body.requestStatus.error.errorMessage).toMatch(/from/);
  });
});

describe('GET /v1/checkin/overrides', () => {
  it('lists each check-in admitted under an override: who, whom, which rule, which device, when, for which departure', async () => {
    const [rosa] = await participantsOf(familySession);
    const checkIn = (occurredAt: string, override?: string[]) => ({ eventId: randomUUID(), kind: 'CHECK_IN', sessionId: familySession, participantId: rosa.id, occurredAt, device: 'Pier tablet', ...(override ? { override } : {}) });
    const send = async (event: object) => (await t.call('POST', '/v1/manifest/events', { role: 'checkin', body: { events: [event] } })).body.events[0];
    expect(await send({ eventId: randomUUID(), kind: 'CLOSE', sessionId: familySession, occurredAt: '2030-01-01T12:00:00Z' })).toMatchObject({ result: 'RECORDED' });
    // Check-in is closed: only an override admits her, and it is recorded with who did it.
    expect(await send(checkIn('2030-01-01T12:05:00Z'))).toMatchObject({ result: 'REJECTED', rule: 'CHECKIN_CLOSED' });
    expect(await send(checkIn('2030-01-01T12:05:00Z', ['CHECKIN_CLOSED']))).toMatchObject({ result: 'RECORDED', overrides: ['CHECKIN_CLOSED'] });
    const { overrides } = (await t.call('GET', '/v1/checkin/overrides?date=2030-01-02')).body;
    expect(overrides).toEqual([
      {
        eventId: expect.any(String),
        by: 'Test checkin',
        apiKeyId: expect.any(Number),
        device: 'Pier tablet',
        rules: ['CHECKIN_CLOSED'],
        orderNumber: family,
        participant: { id: expect.any(Number), name: 'Rosa Family' },
        occurredAt: '2030-01-01T12:05:00Z',
        occurredAtLocal: '2030-01-01 23:05:00',
        session: { id: familySession, productCode, productName: 'Harbour Cruise', startTimeLocal: '2030-01-02 09:00:00' },
      },
    ]);
    expect((await t.call('GET', '/v1/checkin/overrides?date=2030-01-03')).body.overrides).toEqual([]);
    expect((await t.call('GET', '/v1/checkin/overrides?date=2030-01-02&limit=1&offset=1')).body.overrides).toEqual([]);
  });

  it('refuses a date it cannot read, and keys other than the supplier, without changing anything', async () => {
    const before = t.snapshot('checkin_events', 'payments');
    const refused = await t.call('GET', '/v1/checkin/overrides?date=2030-02-30');
    expect(refused.status).toBe(400);
    expect(refused.body.requestStatus.error.errorMessage).toMatch(/date/);
    for (const role of ['agent', 'checkin'] as const) {
      for (const path of ['/v1/checkin/overrides', '/v1/manifest/week']) expect((await t.call('GET', path, { role })).status, `${path} as ${role}`).toBe(403);
    }
    expect(t.snapshot('checkin_events', 'payments')).toEqual(before);
  });
});
