import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aBookingRow } from '../../fixtures/bookingRows';
import { aProductWithSession } from '../../fixtures/manifest';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOCAL = encodeURIComponent('2030-01-03 10:00:00');

/** A minimal RFC 4180 reader, to show the export parses back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('GET /v1/manifest', () => {
  it("lists the session's live bookings with participants, payment, pickup and totals, and cancelled ones apart", async () => {
    const s = await aProductWithSession(t, { seats: 30 });
    const sqlite = t.sql;
    const reseller = 777001;
    sqlite.prepare("INSERT INTO resellers (id, name, alias, created_at) VALUES (?, 'Harbour Agents', 'harbour-agents', 0)").run(reseller);
    const paid = aBookingRow(sqlite, { sessionId: s.sessionId, barcodes: 'PARTICIPANT', names: ['Grace', 'Alan'], pickup: { locationName: 'Pier 1' }, resellerId: reseller, resellerReference: 'HA-9', comments: 'Birthday' });
    const owing = aBookingRow(sqlite, { sessionId: s.sessionId, quantities: [{ label: 'Child', value: 1 }], payments: [] });
    const gone = aBookingRow(sqlite, { sessionId: s.sessionId, status: 'CANCELLED' });
    sqlite.prepare("INSERT INTO resources (id, name, resource_type, seats, created_at) VALUES (888001, 'Bus 1', 'VEHICLE', 30, 0)").run();
    sqlite.prepare('INSERT INTO session_resources (resource_id, session_id, resource_order) VALUES (888001, ?, 1)').run(s.sessionId);
    await t.call('PUT', `/v1/manifest/checkinOrderSession?orderNumber=${paid.orderNumber}&productCode=${s.productCode}&startTimeLocal=${LOCAL}`);

    const res = await t.call('GET', `/v1/manifest?productCode=${s.productCode}&startTimeLocal=${LOCAL}`, { role: 'checkin' });
    expect(res.status).toBe(200);
    const manifest = res.body.manifest;
    expect(manifest.session).toMatchObject({ id: s.sessionId, productCode: s.productCode, productName: 'Old Town Walk', startTimeLocal: '2030-01-03 10:00:00', endTimeLocal: '2030-01-03 12:00:00', seats: 30, seatsAvailable: 27 });
    expect(manifest.bookings.map((b: any) => b.orderNumber)).toEqual([paid.orderNumber, owing.orderNumber]);
    expect(manifest.bookings[0]).toMatchObject({
      status: 'CONFIRMED',
      customer: { name: 'Ada Lovelace', phone: '+61 400 000 000' },
      quantities: [{ optionLabel: 'Adult', value: 2 }],
      pickup: { locationName: 'Pier 1' },
      payment: { totalAmount: 100, totalPaid: 100, totalDue: 0, paid: true },
      resellerName: 'Harbour Agents',
      resellerReference: 'HA-9',
      notes: { comments: 'Birthday' },
    });
    expect(manifest.bookings[0].participants.map((p: any) => [p.name, p.checkin.state, typeof p.barcode])).toEqual([
      ['Grace', 'CHECKED_IN', 'string'],
      ['Alan', 'CHECKED_IN', 'string'],
    ]);
    expect(manifest.bookings[1].payment).toMatchObject({ totalAmount: 25, totalPaid: 0, totalDue: 25, paid: false });
    expect(manifest.bookings[1].participants[0].checkin).toEqual({ state: 'EXPECTED' });
    expect(manifest.cancelled).toEqual([expect.objectContaining({ orderNumber: gone.orderNumber, participantCount: 2 })]);
    expect(manifest.totals).toEqual({ booked: 3, checkedIn: 2, noShow: 0, remaining: 1 });
    expect(manifest.pickupTotals).toEqual([
      { locationName: 'Pier 1', booked: 2, checkedIn: 2, noShow: 0, remaining: 0 },
      { locationName: null, booked: 1, checkedIn: 0, noShow: 0, remaining: 1 },
    ]);
    expect(manifest.resources).toEqual([{ id: 888001, name: 'Bus 1', resourceType: 'VEHICLE', seats: 30, resourceOrder: 1 }]);
    expect(manifest.conflicts).toEqual([]);
  });

  it('serves a manifest of 1,000 participants with correct totals', async () => {
    const s = await aProductWithSession(t, { seats: 1000 });
    const sqlite = t.sql;
    const bookings = Array.from({ length: 250 }, (_, i) =>
      aBookingRow(sqlite, { sessionId: s.sessionId, quantities: [{ label: 'Adult', value: 4 }], pickup: { locationName: i % 2 ? 'Pier 1' : 'Hotel' } }),
    );
    const event = (kind: string, participantId: number) => ({ eventId: randomUUID(), kind, sessionId: s.sessionId, participantId, occurredAt: '2030-01-02T23:10:00Z' });
    const checkIns = bookings.slice(0, 100).flatMap((b) => b.participantIds.map((id) => event('CHECK_IN', id)));
    const noShows = bookings.slice(100, 110).map((b) => event('NO_SHOW', b.participantIds[0]));
    const recorded = await t.call('POST', '/v1/manifest/events', { body: { events: [...checkIns, ...noShows] } });
    expect(recorded.body.events.every((e: any) => e.result === 'RECORDED')).toBe(true);
    const manifest = (await t.call('GET', `/v1/manifest?sessionId=${s.sessionId}`)).body.manifest;
    expect(manifest.bookings).toHaveLength(250);
    expect(manifest.bookings.flatMap((b: any) => b.participants)).toHaveLength(1000);
    expect(manifest.totals).toEqual({ booked: 1000, checkedIn: 400, noShow: 10, remaining: 590 });
    expect(manifest.session.seatsAvailable).toBe(0);
    const byPickup = Object.fromEntries(manifest.pickupTotals.map((p: any) => [p.locationName, p]));
    expect(byPickup.Hotel).toEqual({ locationName: 'Hotel', booked: 500, checkedIn: 200, noShow: 5, remaining: 295 });
    expect(byPickup['Pier 1']).toEqual({ locationName: 'Pier 1', booked: 500, checkedIn: 200, noShow: 5, remaining: 295 });
  });

  it('refuses an unknown session with 404, a bad query with 400, and agent keys with 403', async () => {
    const s = await aProductWithSession(t);
    expect((await t.call('GET', '/v1/manifest?sessionId=123456789')).status).toBe(404);
    const missing = await t.call('GET', `/v1/manifest?productCode=${s.productCode}&startTimeLocal=2030-01-04`);
    expect(missing.status).toBe(404);
    expect(missing.body.requestStatus.error.errorMessage).toMatch(/no session starting at 2030-01-04/);
    const bad = await t.call('GET', '/v1/manifest?sessionId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.requestStatus.error.errorMessage).toMatch(/sessionId/);
    const none = await t.call('GET', '/v1/manifest');
    expect(none.status).toBe(400);
    expect(none.body.requestStatus.error.errorMessage).toMatch(/sessionId, or productCode/);
    const csvMissing = await t.call('GET', '/v1/manifest.csv?sessionId=123456789');
    expect(csvMissing.status).toBe(404);
    expect(csvMissing.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    expect((await t.call('GET', '/v1/manifest.html?sessionId=abc')).status).toBe(400);
    expect((await t.call('GET', `/v1/manifest?sessionId=${s.sessionId}`, { role: 'agent' })).status).toBe(403);
    expect((await t.call('GET', `/v1/manifest.csv?sessionId=${s.sessionId}`, { role: 'agent' })).status).toBe(403);
    expect((await t.call('GET', `/v1/manifest.html?sessionId=${s.sessionId}`, { role: 'agent' })).status).toBe(403);
    expect((await t.call('GET', '/v1/manifest/day', { role: 'agent' })).status).toBe(403);
  });
});

describe('GET /v1/manifest.csv and /v1/manifest.html', () => {
  it('exports one CSV row per participant, with a BOM, that parses back with commas, quotes and newlines in names', async () => {
    const s = await aProductWithSession(t);
    const tricky = 'Smith, "Jo"\nJunior';
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, names: [tricky, 'Zoë'], customer: { firstName: 'Ann, Marie', lastName: 'Ö', phone: '+61 2' }, internalNotes: 'Needs "help"' });
    const res = await t.call('GET', `/v1/manifest.csv?productCode=${s.productCode}&startTimeLocal=${LOCAL}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="manifest-.*\.csv"$/);
    const text = res.body as string;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(text.slice(1));
    expect(rows[0]).toEqual(['Order', 'Status', 'Customer', 'Phone', 'Participant', 'Options', 'Pickup', 'Paid', 'Due', 'Currency', 'Check-in', 'Checked in at', 'Notes']);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([b.orderNumber, 'CONFIRMED', 'Ann, Marie Ö', '+61 2', tricky, '2 Adult', '', '100', '0', 'AUD', 'EXPECTED', '', 'Needs "help"']);
    expect(rows[2][4]).toBe('Zoë');
  });

  it('serves a printable page with a check-box column, escaped names and the totals', async () => {
    const s = await aProductWithSession(t);
    aBookingRow(t.sql, { sessionId: s.sessionId, names: ['<b>Eve</b>', 'Bob'] });
    const res = await t.call('GET', `/v1/manifest.html?sessionId=${s.sessionId}`, { role: 'checkin' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body as string;
    expect(html).toContain('@media print');
    expect(html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(html).not.toContain('<b>Eve</b>');
    expect(html.match(/class="box">&#9744;/g)).toHaveLength(2);
    expect(html).toContain('People: 2 · Checked in: 0 · No-show: 0 · Remaining: 2');
  });
});

describe('the exports in the company formats', () => {
  it('name a participant without a name as the app does, and write times and money as the screens do', async () => {
    const s = await aProductWithSession(t);
    const b = aBookingRow(t.sql, { sessionId: s.sessionId, names: ['', 'Bob'], totalAmountMinor: 15_000, payments: [{ amountMinor: 5_000 }] });
    const checkin = await t.call('PUT', `/v1/manifest/checkinOrderSession?orderNumber=${b.orderNumber}&productCode=${s.productCode}&startTime=${s.startTime}`);
    expect(checkin.status).toBe(200);
    const rows = parseCsv(((await t.call('GET', `/v1/manifest.csv?sessionId=${s.sessionId}`)).body as string).slice(1));
    expect(rows.slice(1).map((r) => r[4])).toEqual(['Participant 1', 'Bob']);
    // The test company is en_AU in Australia/Sydney: 12-hour, the month in words, amounts plain for adding up.
    expect(rows[1].slice(7, 10)).toEqual(['50', '100', 'AUD']);
    expect(rows[1][11]).toMatch(/^\w{3},? \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}\s(am|pm)$/);
    const html = (await t.call('GET', `/v1/manifest.html?sessionId=${s.sessionId}`)).body as string;
    expect(html).toContain('<td>Participant 1</td>');
    expect(html).toContain('due $100.00');
    expect(html).toMatch(/<p>Thu,? 3 Jan 2030, 10:00\s(am|pm) to \d{1,2}:\d{2}\s(am|pm) · /);
    expect(html).toContain('<html lang="en-AU">');
  });
});

describe('GET /v1/manifest/day', () => {
  it("lists the day's sessions of every product with counts, ordered by start, today by default", async () => {
    const early = await aProductWithSession(t, { startTime: '2030-01-09T20:00:00Z' }); // 07:00 local, 10 Jan
    const late = await aProductWithSession(t, { startTime: '2030-01-10T05:00:00Z' }); // 16:00 local, 10 Jan
    await aProductWithSession(t, { startTime: '2030-01-10T14:00:00Z' }); // 01:00 local, 11 Jan
    const b = aBookingRow(t.sql, { sessionId: late.sessionId, quantities: [{ label: 'Adult', value: 3 }] });
    await t.call('PUT', `/v1/manifest/checkinOrderSession?orderNumber=${b.orderNumber}&productCode=${late.productCode}&startTime=2030-01-10T05:00:00Z`);
    const res = await t.call('GET', '/v1/manifest/day?date=2030-01-10', { role: 'checkin' });
    expect(res.status).toBe(200);
    expect(res.body.sessions.map((x: any) => [x.id, x.booked, x.checkedIn, x.noShow])).toEqual([
      [early.sessionId, 0, 0, 0],
      [late.sessionId, 3, 3, 0],
    ]);
    t.clock.set('2030-01-09T21:00:00Z'); // 08:00 on 10 Jan in Sydney
    expect((await t.call('GET', '/v1/manifest/day')).body.sessions).toHaveLength(2);
    expect((await t.call('GET', '/v1/manifest/day?date=2031-05-05')).body.sessions).toEqual([]);
  });

  it('refuses a date that is not one with 400', async () => {
    const res = await t.call('GET', '/v1/manifest/day?date=soon');
    expect(res.status).toBe(400);
    expect(res.body.requestStatus.error.errorCode).toBe('INVALID_TIME');
  });
});
