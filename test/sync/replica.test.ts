import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { sqliteSyncStore } from '../../db/queries/sync';
import { wholeHlc } from '../../db/syncEncoding';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { exchangeWith } from '../../main/sync/exchange';
import { SCHEMA_VERSION } from '../../main/sync/core';
import { directTransport, exchange, nodesClosedAfterEach, type SyncNode } from './nodes';

const { node } = nodesClosedAfterEach();

async function hubWithSession(seats = 4) {
  const hub = await node('hub', { instanceNo: 1 });
  const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
  const session = await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats }));
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  return { hub, productCode: product.productCode as string, startTime: '2030-02-01T09:00:00+11:00' };
}

const sessionOf = async (n: SyncNode, productCode: string) =>
  (await n.call('GET', `/v1/availability?productCode=${productCode}&startTimeLocal=2030-02-01&endTimeLocal=2030-02-02`)).body.sessions[0];

describe('sync between a hub and a desk on real SQLite files', () => {
  it('gives a new desk the hub’s catalogue, and both identical dumps', async () => {
    const { hub, productCode } = await hubWithSession();
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    expect(await desk.engine.replica.vector()).toEqual(await hub.engine.replica.vector());
    expect(await desk.dump()).toBe(await hub.dump());
    expect((await desk.call('GET', `/v1/products/${productCode}`)).body.product.name).toBe('Old Town Walk');
  });

  it('carries sales made on both sides to both sides, and re-exchanging changes nothing', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const atDesk = await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]));
    expect(atDesk.status, JSON.stringify(atDesk.body)).toBe(200);
    const atHub = await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 3 }]));
    expect(atHub.status).toBe(200);
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    for (const n of [hub, desk]) {
      expect((await n.call('GET', `/v1/bookings/${atDesk.body.booking.orderNumber}`)).status).toBe(200);
      expect((await n.call('GET', `/v1/bookings/${atHub.body.booking.orderNumber}`)).status).toBe(200);
      expect((await sessionOf(n, productCode)).seatsAvailable).toBe(5);
    }
    const dump = await hub.dump();
    const again = await exchange(desk, hub);
    expect([again.received, again.sent]).toEqual([0, 0]);
    expect(await hub.dump()).toBe(dump);
  });

  it('keeps both last-seat sales: neither is dropped, the session shows as oversold on both', async () => {
    const { hub, productCode, startTime } = await hubWithSession(2);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    expect((await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).status).toBe(200);
    expect((await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).status).toBe(200);
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    const held = hub.sql.prepare("SELECT count(*) AS n FROM bookings WHERE status = 'CONFIRMED'").get() as { n: number };
    expect(held.n).toBe(2);
  });

  it('shows the oversold flag on the departure board and the manifest, until a person acknowledges the set', async () => {
    const { hub, productCode, startTime } = await hubWithSession(2);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const a = (await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking.orderNumber;
    const b = (await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking.orderNumber;
    const manifestUrl = `/v1/manifest?productCode=${productCode}&startTimeLocal=${encodeURIComponent('2030-02-01 09:00:00')}`;
    expect((await desk.call('GET', manifestUrl)).body.manifest.session.oversold).toBeNull();
    await exchange(desk, hub);
    const bookingSet = [a, b].sort().join(',');
    for (const n of [hub, desk]) {
      const board = (await n.call('GET', '/v1/manifest/day?date=2030-02-01')).body.sessions;
      expect(board[0].oversold).toEqual({ capacity: 2, seatsHeld: 3, bookingSet, bookings: expect.arrayContaining([{ orderNumber: a, seats: 2 }, { orderNumber: b, seats: 1 }]), acknowledged: false });
      expect((await n.call('GET', manifestUrl)).body.manifest.session.oversold).toMatchObject({ seatsHeld: 3, bookingSet, acknowledged: false });
    }
    const sessionId = (await sessionOf(desk, productCode)).id;
    expect((await desk.call('POST', `/v1/sync/conflicts/${sessionId}/acknowledge`, { bookingSet })).status).toBe(200);
    await exchange(desk, hub);
    expect((await hub.call('GET', manifestUrl)).body.manifest.session.oversold).toMatchObject({ acknowledged: true });
  });

  it('lets a cancellation win over a concurrent edit, on both sides', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const booking = (await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    await exchange(desk, hub);
    const cancelled = await hub.call('DELETE', `/v1/bookings/${booking.orderNumber}`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const edited = await desk.call('PUT', `/v1/bookings/${booking.orderNumber}`, { resellerReference: 'WINDOW-7' });
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    const row = desk.sql.prepare('SELECT status FROM bookings WHERE order_number = ?').get(booking.orderNumber) as { status: string };
    expect(row.status).toBe('CANCELLED');
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const comments = hub.sql.prepare('SELECT reseller_reference AS ref FROM bookings WHERE order_number = ?').get(booking.orderNumber) as { ref: string };
    expect(comments.ref).toBe('WINDOW-7');
  });

  it('keeps the merge state of rows a local write inserted in their ops, and in sync_rows from a row’s first change', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const before = (desk.sql.prepare('SELECT coalesce(max(arrival), 0) AS n FROM sync_ops').get() as { n: number }).n;
    const sale = await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const booking = sale.body.booking;
    const id = JSON.stringify([booking.orderNumber]);
    // Every row the sale inserted is its op's state: not one state row written for them.
    const inserted = desk.sql.prepare("SELECT entity, entity_id, row_state FROM sync_ops WHERE arrival > ? AND kind = 'insert'").all(before) as { entity: string; entity_id: string; row_state: number | null }[];
    expect(new Set(inserted.map((o) => o.entity))).toEqual(new Set(['customers', 'bookings', 'booking_items', 'booking_item_quantities', 'participants']));
    expect(inserted.filter((o) => o.row_state !== 1)).toEqual([]);
    const stateRows = desk.sql.prepare('SELECT count(*) AS n FROM sync_row_names WHERE entity = ? AND entity_id = ?');
    for (const o of inserted) expect(stateRows.get(o.entity, o.entity_id)).toEqual({ n: 0 });
    // Read back, the state is what merging the insert gives: every column with its stamp, born then.
    const q = sqliteSyncStore(desk.sql);
    const op = desk.sql.prepare("SELECT origin, hlc FROM sync_ops WHERE entity = 'bookings' AND entity_id = ? AND kind = 'insert'").get(id) as { origin: string; hlc: string };
    const stamp = wholeHlc(op.hlc, op.origin);
    const columns = (desk.sql.prepare('SELECT name FROM pragma_table_info(?)').all('bookings') as { name: string }[]).map((c) => c.name);
    q.beginWork();
    expect(q.rowState('bookings', id)).toEqual({ clocks: Object.fromEntries(columns.map((c) => [c, stamp])), born: stamp, deleted: null, erased: null });
    // The first change writes the row's state: the edited columns take the edit's stamp, the rest keep the insert's.
    expect((await desk.call('PUT', `/v1/bookings/${booking.orderNumber}`, { resellerReference: 'WINDOW-3' })).status).toBe(200);
    const edit = desk.sql.prepare("SELECT origin, hlc FROM sync_ops WHERE entity = 'bookings' AND entity_id = ? AND kind = 'update'").get(id) as { origin: string; hlc: string };
    expect(stateRows.get('bookings', id)).toEqual({ n: 1 });
    q.beginWork();
    const changed = q.rowState('bookings', id)!;
    expect(changed.clocks.reseller_reference).toBe(wholeHlc(edit.hlc, edit.origin));
    expect(changed.clocks.created_at).toBe(stamp);
    expect(changed.born).toBe(stamp);
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    expect(hub.sql.prepare('SELECT reseller_reference AS ref FROM bookings WHERE order_number = ?').get(booking.orderNumber)).toEqual({ ref: 'WINDOW-3' });
  });

  it('merges a local insert of a row that has a state already (deleted before) the whole way: a deleted customer stays deleted', async () => {
    const { hub } = await hubWithSession();
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const write = (text: string) => desk.engine.ctx.write(SYSTEM_ACTOR, async () => void desk.sql.prepare(text).run());
    await write("INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (4242998, 'Kim', 1, 1)");
    await write('DELETE FROM customers WHERE id = 4242998');
    // The same key again: its state says deleted (and, for a customer, erased), so the merge removes it again.
    await write("INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (4242998, 'Kim', 2, 2)");
    expect(desk.sql.prepare('SELECT count(*) AS n FROM customers WHERE id = 4242998').get()).toEqual({ n: 0 });
    const q = sqliteSyncStore(desk.sql);
    q.beginWork();
    expect(q.rowState('customers', '[4242998]')?.deleted).not.toBeNull();
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    expect(hub.sql.prepare('SELECT count(*) AS n FROM customers WHERE id = 4242998').get()).toEqual({ n: 0 });
  });

  it('blanks a booking a desk writes for a customer erased there, and its participants, in the writing transaction', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sale = (await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    await exchange(desk, hub);
    expect((await hub.call('DELETE', `/v1/customers/${sale.customer.id}`)).status).toBe(200);
    await exchange(desk, hub);
    // A new booking, item and participant naming the erased customer (a write made as a restored copy would make it).
    const session = desk.sql.prepare('SELECT id, start_at, end_at FROM sessions WHERE product_code = ?').get(productCode) as { id: number; start_at: number; end_at: number };
    await desk.engine.ctx.write(SYSTEM_ACTOR, async () => {
      desk.sql
        .prepare("INSERT INTO bookings (order_number, id, status, customer_id, currency, total_amount_minor, comments, fields_json, created_at, updated_at) VALUES ('T2-LATE', 4243002, 'CONFIRMED', ?, 'AUD', 0, 'Ada: call +61 400', ?, 1, 1)")
        .run(sale.customer.id, JSON.stringify([{ label: 'Phone', value: '+61 400' }]));
      desk.sql
        .prepare("INSERT INTO booking_items (id, order_number, position, product_code, session_id, start_at, end_at, amount_minor, subtotal_minor, total_quantity, seats_held) VALUES (4244002, 'T2-LATE', 0, ?, ?, ?, ?, 0, 0, 1, 1)")
        .run(productCode, session.id, session.start_at, session.end_at);
      desk.sql.prepare('INSERT INTO participants (id, item_id, position, fields_json) VALUES (4245002, 4244002, 0, ?)').run(JSON.stringify([{ label: 'Name', value: 'Ada' }]));
    });
    expect(desk.sql.prepare("SELECT comments, fields_json FROM bookings WHERE order_number = 'T2-LATE'").get()).toEqual({ comments: null, fields_json: '[]' });
    expect(desk.sql.prepare('SELECT fields_json FROM participants WHERE id = 4245002').get()).toEqual({ fields_json: '[]' });
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    const ops = JSON.stringify(desk.sql.prepare("SELECT change_json FROM sync_ops WHERE entity IN ('bookings', 'participants')").all());
    expect(ops).not.toMatch(/\+61 400|Ada/);
  });

  it('refuses catalogue changes on a desk, with a message saying where to make them', async () => {
    const { hub } = await hubWithSession();
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const refused = await desk.call('POST', '/v1/products', aProduct({ name: 'Desk Tour' }));
    expect(refused.status).toBe(403);
    expect(refused.body.requestStatus.error).toMatchObject({ errorCode: 'CATALOGUE_OWNED_BY_HUB', errorMessage: expect.stringMatching(/change it on the hub/) });
  });

  it('gives a sync key the exchange and status only: bookings and the catalogue stay closed to it', async () => {
    const { hub } = await hubWithSession();
    const { key } = await hub.engine.apiKeys.create({ role: 'sync', name: 'desk 2 peer key' });
    const as = (method: 'GET' | 'POST', url: string) => hub.app.inject({ method, url, headers: { host: '127.0.0.1', apikey: key } });
    expect((await as('GET', '/v1/sync/status')).statusCode).toBe(200);
    expect((await as('GET', '/v1/bookings')).statusCode).toBe(403);
    expect((await as('GET', '/v1/products')).statusCode).toBe(403);
    expect((await hub.engine.apiKeys.list()).find((k) => k.name === 'desk 2 peer key')?.role).toBe('sync');
  });

  it('refuses a session change on a desk before doing any work, and the hub’s change arrives', async () => {
    const { hub, productCode } = await hubWithSession(4);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sessionId = (await sessionOf(desk, productCode)).id;
    const before = await desk.dump();
    const refused = await desk.call('PUT', `/v1/availability/${sessionId}`, { seats: 9 });
    expect(refused.status).toBe(403);
    expect(refused.body.requestStatus.error.errorCode).toBe('CATALOGUE_OWNED_BY_HUB');
    expect(await desk.dump()).toBe(before);
    expect((await hub.call('PUT', `/v1/availability/${sessionId}`, { seats: 9 })).status).toBe(200);
    await exchange(desk, hub);
    expect((await sessionOf(desk, productCode)).seats).toBe(9);
  });

  it('purges an erased customer’s personal data from the op log on every instance', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const booking = (await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    await exchange(desk, hub);
    const customerId = booking.customer.id;
    expect((await hub.call('DELETE', `/v1/customers/${customerId}`)).status).toBe(200);
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    for (const n of [hub, desk]) {
      const text = JSON.stringify(n.sql.prepare("SELECT change_json FROM sync_ops WHERE entity = 'customers'").all());
      expect(text).not.toMatch(/Lovelace|ada@example/);
    }
  });

  it('purges an erased customer’s names from their bookings’ and participants’ rows and ops too, on every instance', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const body = aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { comments: 'Byron family, please call Augusta' });
    body.items[0].participants = [{ fields: [{ label: 'Full Name', value: 'Augusta Byron' }] }];
    const sale = await desk.call('POST', '/v1/bookings', body);
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    await exchange(desk, hub);
    expect(JSON.stringify(hub.sql.prepare('SELECT change_json FROM sync_ops').all())).toMatch(/Augusta/);
    expect((await hub.call('DELETE', `/v1/customers/${sale.body.booking.customer.id}`)).status).toBe(200);
    await exchange(desk, hub);
    const late = await node('late', { instanceNo: 3, hub });
    await exchange(late, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    expect(await late.dump()).toBe(await hub.dump());
    for (const n of [hub, desk, late]) {
      const sqlite = n.sql;
      expect(JSON.stringify(sqlite.prepare('SELECT change_json FROM sync_ops').all())).not.toMatch(/Augusta|Lovelace|ada@example/);
      expect(JSON.stringify(sqlite.prepare('SELECT * FROM participants').all())).not.toMatch(/Augusta/);
      expect(JSON.stringify(sqlite.prepare('SELECT * FROM bookings').all())).not.toMatch(/Augusta|Lovelace/);
    }
  });

  it('purges what an erased customer wrote in a booking that an edit has since detached from them', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sale = await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }], { comments: 'Augusta asked for a window seat' }));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    // A PUT without customer data clears the booking's link to its customer (full replacement).
    const edit = await desk.call('PUT', `/v1/bookings/${sale.body.booking.orderNumber}`, { resellerReference: 'WINDOW-1' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.booking.customer ?? null).toBeNull();
    await exchange(desk, hub);
    expect((await desk.call('DELETE', `/v1/customers/${sale.body.booking.customer.id}`)).status).toBe(200);
    await exchange(desk, hub);
    expect(await desk.dump()).toBe(await hub.dump());
    for (const n of [hub, desk]) {
      const sqlite = n.sql;
      expect(JSON.stringify(sqlite.prepare('SELECT change_json FROM sync_ops').all())).not.toMatch(/Augusta|Lovelace|ada@example/);
      expect(JSON.stringify(sqlite.prepare('SELECT * FROM bookings').all())).not.toMatch(/Augusta/);
    }
  });

  it('purges a detached booking’s words on a desk that joined from a snapshot, which never saw the ops naming the customer', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const sale = await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }], { comments: 'Augusta asked for a window seat' }));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    // Detached before the desk joins: only the hub's ops say the booking held this customer.
    expect((await hub.call('PUT', `/v1/bookings/${sale.body.booking.orderNumber}`, { resellerReference: 'WINDOW-1' })).status).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    const lines: string[] = [];
    await exchangeWith(desk.side, directTransport(hub), (line) => lines.push(line));
    expect(lines.at(-1)).toMatch(/^joined from a snapshot of \d+ rows$/);
    expect(JSON.stringify(desk.sql.prepare('SELECT comments FROM bookings').all())).toMatch(/Augusta/);
    expect((await hub.call('DELETE', `/v1/customers/${sale.body.booking.customer.id}`)).status).toBe(200);
    await exchange(desk, hub);
    expect(JSON.stringify(desk.sql.prepare('SELECT * FROM bookings').all())).not.toMatch(/Augusta/);
    expect(await desk.dump()).toBe(await hub.dump());
  });

  it('refuses a whole-order check-in while a cut exchange has brought the booking but not its passengers', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sale = (await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).body.booking;
    // The desk's ops up to (not including) its first participant: what a push cut between two pages leaves on the hub.
    const ops = (await desk.engine.replica.pageFor(await hub.engine.replica.vector(), 1000, 1 << 24)).ops;
    const cut = ops.findIndex((op) => op.entity === 'participants');
    expect(cut).toBeGreaterThan(0);
    await hub.engine.replica.apply(ops.slice(0, cut));
    expect((await hub.call('GET', `/v1/bookings/${sale.orderNumber}`)).status).toBe(200);
    const path = `/v1/manifest/checkinOrderSession?orderNumber=${sale.orderNumber}&productCode=${productCode}&startTimeLocal=${encodeURIComponent('2030-02-01 09:00:00')}`;
    const early = await hub.call('PUT', path);
    expect(early.status, JSON.stringify(early.body)).toBe(409);
    expect(early.body.requestStatus.error.errorMessage).toMatch(/not reached this instance yet/);
    expect(hub.sql.prepare('SELECT count(*) AS n FROM checkin_events').get()).toEqual({ n: 0 });
    // Once the rest arrives, the same call checks both in.
    await exchange(desk, hub);
    expect((await hub.call('PUT', path)).status).toBe(200);
    expect(hub.sql.prepare('SELECT count(*) AS n FROM checkin_events').get()).toEqual({ n: 2 });
  });

  it('never ends a page inside one write, pulled or pushed, first-hand or relayed, unless the write alone is over the cap', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const before = await hub.engine.replica.vector();
    const sell = async (at: SyncNode, seats: number) => {
      const sale = await at.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: seats }]));
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
      return sale.body.booking.orderNumber as string;
    };
    // Two sales at the desk: two writes of several ops each (booking, item, quantities, participants, codes).
    const first = await sell(desk, 2);
    const firstOps = (await desk.engine.replica.pageFor(before, 1000, 1 << 24)).ops.length;
    const second = await sell(desk, 3);
    const all = (await desk.engine.replica.pageFor(before, 1000, 1 << 24)).ops;
    expect(firstOps).toBeGreaterThan(3);
    expect(all.length - firstOps).toBeGreaterThan(3);
    const bytesOf = (n: number) => all.slice(0, n).reduce((sum, op) => sum + JSON.stringify(op.change).length + 200, 0);
    // A cap that lands inside the second sale's ops ends the page after the first sale, by count or by bytes.
    const pages = async (from: SyncNode, limit: number, maxBytes: number) => {
      const out: number[] = [];
      let cursor: number | undefined;
      let vector = before;
      for (;;) {
        const page = await from.engine.replica.pageFor(vector, limit, maxBytes, cursor);
        out.push(page.ops.length);
        if (!page.hasMore) return out;
        cursor = page.cursor;
        vector = { ...vector, ...Object.fromEntries(page.ops.map((op) => [op.origin, op.seq])) };
      }
    };
    expect(await pages(desk, firstOps + 2, 1 << 24)).toEqual([firstOps, all.length - firstOps]);
    expect(await pages(desk, 1000, bytesOf(firstOps + 2))).toEqual([firstOps, all.length - firstOps]);
    // A single write over the cap is cut at the cap: nothing else could carry it.
    expect((await pages(desk, 2, 1 << 24))[0]).toBe(2);
    // Pushed in pages of that cap, the hub never holds half a sale; it keeps the boundary when it relays them.
    const page = await desk.engine.replica.pageFor(before, firstOps + 2, 1 << 24);
    await hub.engine.replica.apply(page.ops);
    expect((await hub.call('GET', `/v1/bookings/${first}`)).status).toBe(200);
    expect((await hub.call('GET', `/v1/bookings/${second}`)).status).toBe(404);
    await exchange(desk, hub);
    expect(await pages(hub, firstOps + 2, 1 << 24)).toEqual([firstOps, all.length - firstOps]);
  });

  it('holds ops of a newer schema instead of applying them, and applies them once upgraded', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sale = (await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    const newer = (await hub.engine.replica.pageFor(await desk.engine.replica.vector(), 1000, 1 << 24)).ops.map((op) => ({ ...op, schema: SCHEMA_VERSION + 1 }));
    const result = await desk.engine.replica.apply(newer);
    expect(result).toMatchObject({ applied: 0, held: newer.length });
    expect((await desk.call('GET', `/v1/bookings/${sale.orderNumber}`)).status).toBe(404);
    expect(await desk.engine.replica.releaseHeld()).toBe(0); // this build still does not know that schema
    expect(await desk.engine.replica.releaseHeld(SCHEMA_VERSION + 1)).toBe(newer.length); // as the upgraded build
    expect(await desk.engine.replica.heldCount()).toBe(0);
    expect((await desk.call('GET', `/v1/bookings/${sale.orderNumber}`)).status).toBe(200);
    expect(await desk.dump()).toBe(await hub.dump());
  });

  it('reports progress page by page while a desk catches up a backlog', async () => {
    const { hub } = await hubWithSession();
    const insert = hub.sql.prepare('INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (?, ?, 1, 1)');
    await hub.engine.ctx.write(SYSTEM_ACTOR, async () => {
      for (let i = 1; i <= 1200; i++) insert.run(i * 1000 + 998, `Guest ${i}`); // an instance number nobody here uses
    });
    const desk = await node('desk', { instanceNo: 2, hub });
    const lines: string[] = [];
    const report = await exchangeWith(desk.side, directTransport(hub, { snapshots: false }), (line) => lines.push(line));
    expect(report.received).toBeGreaterThan(1200);
    // The catalogue's writes come whole in the first page; the 1,200-op write alone is over the cap, so it comes in pages of 500.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(/^received \d+ ops, 1200 to go$/);
    expect(lines[1]).toMatch(/^received \d+ ops, 700 to go$/);
    expect(await desk.dump()).toBe(await hub.dump());
  });

  it('lets a fresh desk join from a snapshot plus vector instead of replaying the log, then continue op by op', async () => {
    const { hub, productCode, startTime } = await hubWithSession(10);
    const insert = hub.sql.prepare('INSERT INTO customers (id, first_name, created_at, updated_at) VALUES (?, ?, 1, 1)');
    await hub.engine.ctx.write(SYSTEM_ACTOR, async () => {
      for (let i = 1; i <= 2500; i++) insert.run(i * 1000 + 998, `Guest ${i}`); // an instance number nobody here uses
    });
    const erased = (await hub.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 1 }]))).body.booking;
    expect((await hub.call('DELETE', `/v1/customers/${erased.customer.id}`)).status).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    const lines: string[] = [];
    const report = await exchangeWith(desk.side, directTransport(hub), (line) => lines.push(line));
    expect(lines).toContain('snapshot: 2000 rows taken');
    expect(lines.at(-1)).toMatch(/^joined from a snapshot of \d+ rows$/);
    expect(report.received).toBe(0); // nothing of the hub's log replayed
    expect(await desk.dump()).toBe(await hub.dump());
    expect(await desk.engine.replica.vector()).toEqual(await hub.engine.replica.vector());
    const sqlite = desk.sql;
    expect((sqlite.prepare('SELECT count(*) AS n FROM sync_ops').get() as { n: number }).n).toBeLessThan(5);
    // Merge states came along: the erasure stays final, and later changes flow both ways as ops.
    expect((sqlite.prepare('SELECT erased FROM sync_row_names WHERE entity = ? AND entity_id = ?').get('customers', JSON.stringify([erased.customer.id])) as { erased: string | null }).erased).not.toBeNull();
    expect((await desk.call('POST', '/v1/bookings', aBooking(productCode, startTime, [{ optionLabel: 'Adult', value: 2 }]))).status).toBe(200);
    expect((await hub.call('DELETE', `/v1/bookings/${erased.orderNumber}`)).status).toBe(200);
    const next = await exchange(desk, hub);
    expect(next.received).toBeGreaterThan(0);
    expect(next.sent).toBeGreaterThan(0);
    expect(await desk.dump()).toBe(await hub.dump());
  });
});
