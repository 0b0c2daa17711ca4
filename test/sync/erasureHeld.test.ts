import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { SYSTEM_ACTOR } from '../../main/domain/context';
import { SCHEMA_VERSION } from '../../main/sync/core';
import { exchange, nodesClosedAfterEach, type SyncNode } from './nodes';

/**
 * Issue 38: ops held back (a newer schema's, kept in sync_held until an upgrade) are copies of what
 * arrived; an erasure reaches them like the op log. A desk edits a customer; its op reaches the hub as
 * a newer schema's and is held; the hub erases the customer (on PostgreSQL under the postgres project);
 * sync_held must then hold none of their name, email or phone. And a held op that arrives after the
 * erasure is held without them.
 */
const { node } = nodesClosedAfterEach();

const GUEST = { firstName: 'Heldana', lastName: 'Scrubworthy', email: 'heldana.scrub@example.test', phone: '+61 499 123450' };
const EDITS = [
  { email: 'heldana.second@example.test', phone: '+61 499 123451' },
  { email: 'heldana.third@example.test', phone: '+61 499 123452' },
];

const heldText = (n: SyncNode) => JSON.stringify(n.sql.prepare('SELECT * FROM sync_held').all());

/** The desk changes the customer's email and phone; the op reaches the hub as a newer schema's and is held there. */
async function heldEdit(desk: SyncNode, hub: SyncNode, customerId: number, edit: { email: string; phone: string }) {
  await desk.engine.ctx.write(SYSTEM_ACTOR, async () => {
    desk.sql.prepare('UPDATE customers SET email = ?, phone = ? WHERE id = ?').run(edit.email, edit.phone, customerId);
  });
  const page = await desk.engine.replica.pageFor(await hub.engine.replica.vector(), 1000, 1 << 24);
  const newer = page.ops.map((op) => ({ ...op, schema: SCHEMA_VERSION + 1 }));
  expect(newer.map((op) => op.entity)).toEqual(['customers']);
  expect(await hub.engine.replica.apply(newer)).toMatchObject({ applied: 0, held: 1 });
}

describe('erasure reaches held ops', () => {
  it('blanks an erased customer in the ops held back, and holds a later op of theirs without their data', async () => {
    const hub = await node('hub', { instanceNo: 1 });
    const product = (await hub.call('POST', '/v1/products', aProduct())).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 10 }))).status).toBe(200);
    const desk = await node('desk', { instanceNo: 2, hub });
    await exchange(desk, hub);
    const sale = await hub.call('POST', '/v1/bookings', aBooking(product.productCode, '2030-02-01T09:00:00+11:00', [{ optionLabel: 'Adult', value: 1 }], { customer: GUEST }));
    expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    const customerId = sale.body.booking.customer.id as number;
    await exchange(desk, hub);

    await heldEdit(desk, hub, customerId, EDITS[0]);
    expect(heldText(hub)).toContain(EDITS[0].phone);
    expect(heldText(hub)).toContain(EDITS[0].email);

    const erased = await hub.call('DELETE', `/v1/customers/${customerId}`);
    expect(erased.status).toBe(200);
    expect(erased.body.anonymised).toBe(true);
    const afterErasure = heldText(hub);
    expect(await hub.engine.replica.heldCount()).toBe(1); // still held (an upgrade applies it), only blanked
    for (const trace of [GUEST.firstName, GUEST.lastName, GUEST.email, GUEST.phone, EDITS[0].email, EDITS[0].phone]) {
      expect(afterErasure.includes(trace), `sync_held still holds "${trace}"`).toBe(false);
    }

    // The desk has not heard of the erasure: its next edit arrives after it, and is held blank.
    await heldEdit(desk, hub, customerId, EDITS[1]);
    expect(await hub.engine.replica.heldCount()).toBe(2);
    const later = heldText(hub);
    for (const trace of [EDITS[1].email, EDITS[1].phone]) expect(later.includes(trace), `sync_held holds "${trace}"`).toBe(false);

    // Once upgraded, the held ops apply and the customer stays erased.
    expect(await hub.engine.replica.releaseHeld(SCHEMA_VERSION + 1)).toBe(2);
    const customer = (await hub.call('GET', `/v1/customers/${customerId}`)).body.customer;
    expect(JSON.stringify(customer)).not.toContain(EDITS[1].phone);
    expect(customer.email ?? null).toBeNull();
  });
});
