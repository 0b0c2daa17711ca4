import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession } from '../fixtures/builders';
import { exchange, nodesClosedAfterEach, type SyncNode } from './nodes';

/**
 * Issue 38: an erased customer's personal data is gone from every table, stored answer and op on
 * every instance within one exchange of the erasure reaching it. Three instances (a hub, on
 * PostgreSQL under the postgres project, and two SQLite desks); one customer erased on the hub, one
 * on a desk; then every table's text on every instance, and the SQLite files' raw bytes after a
 * checkpoint, are searched for their names, emails and phones.
 */
const { node } = nodesClosedAfterEach();

const START = '2030-02-01T09:00:00+11:00';
interface Guest { firstName: string; lastName: string; email: string; phone: string; passenger: string; comment: string }
const ZELDA: Guest = { firstName: 'Zelda', lastName: 'Erasetest', email: 'zelda.erasetest@example.test', phone: '+61 499 000111', passenger: 'Zeldina Passengerly', comment: 'Zelda wants the window' };
const QUENTIN: Guest = { firstName: 'Quentin', lastName: 'Wipeoutson', email: 'quentin.wipeout@example.test', phone: '+61 488 777222', passenger: 'Quenby Travellerton', comment: 'Quentin is vegetarian' };
/** What must be gone: each alone, so a half-blanked value is caught too. */
const traces = (g: Guest) => [g.firstName, g.lastName, g.email, g.phone, g.passenger, g.comment.split(' ').slice(1).join(' ')];

async function sell(at: SyncNode, productCode: string, guest: Guest) {
  const body = aBooking(productCode, START, [{ optionLabel: 'Adult', value: 1 }], {
    customer: { firstName: guest.firstName, lastName: guest.lastName, email: guest.email, phone: guest.phone },
    comments: guest.comment,
  });
  body.items[0].participants = [{ fields: [{ label: 'Full Name', value: guest.passenger }] }];
  const sale = await at.call('POST', '/v1/bookings', body);
  expect(sale.status, JSON.stringify(sale.body)).toBe(200);
  return sale.body.booking as { orderNumber: string; customer: { id: number }; items: { participants: { barcode?: string }[] }[] };
}

async function scan(at: SyncNode, code: string, eventId: string) {
  const res = await at.call('POST', '/v1/manifest/scan', { code, eventId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.scan;
}

/** Every table's rows as text, and on SQLite the database file's bytes after a checkpoint (nothing left in the WAL). */
function everything(n: SyncNode): string {
  if (n.dialect === 'postgres') {
    const tables = n.sql.prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'").all() as { table_name: string }[];
    expect(tables.length).toBeGreaterThan(30);
    return tables.map(({ table_name }) => JSON.stringify(n.sql.prepare(`SELECT t::text AS row FROM "${table_name}" t`).all())).join('\n');
  }
  const tables = n.sql.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  expect(tables.length).toBeGreaterThan(30);
  const rows = tables.map(({ name }) => JSON.stringify(n.sql.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  n.sql.pragma('wal_checkpoint(TRUNCATE)');
  const file = join(n.dir, 'tourdesk.sqlite');
  const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n');
  return `${rows}\n${bytes}`;
}

describe('erasure that erases, on a hub and two desks', () => {
  it('leaves no name, email or phone of a customer erased on the hub or on a desk in any table, answer, op or file on any instance', async () => {
    const hub = await node('hub', { instanceNo: 1 });
    const product = (await hub.call('POST', '/v1/products', aProduct({ barcodeOutputType: 'PARTICIPANT', qrCodeType: 'INTERNAL' }))).body.product;
    expect((await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats: 10 }))).status).toBe(200);
    const deskA = await node('deskA', { instanceNo: 2, hub });
    const deskB = await node('deskB', { instanceNo: 3, hub });
    const round = async () => {
      for (const desk of [deskA, deskB, deskA]) await exchange(desk, hub);
    };
    await round();

    // Zelda buys at desk A and is scanned there; Quentin buys at the hub and is scanned at the hub and at desk B.
    const zelda = await sell(deskA, product.productCode, ZELDA);
    const zeldaScan = randomUUID();
    const codeOf = (b: typeof zelda) => b.items[0].participants[0].barcode ?? b.orderNumber;
    expect(JSON.stringify(await scan(deskA, codeOf(zelda), zeldaScan))).toContain(ZELDA.phone);
    const quentin = await sell(hub, product.productCode, QUENTIN);
    const quentinScans = { hub: randomUUID(), deskB: randomUUID() };
    expect(JSON.stringify(await scan(hub, codeOf(quentin), quentinScans.hub))).toContain(QUENTIN.phone);
    await round();
    expect(JSON.stringify(await scan(deskB, codeOf(quentin), quentinScans.deskB))).toContain(QUENTIN.lastName);
    await round();
    for (const n of [hub, deskA, deskB]) for (const g of [ZELDA, QUENTIN]) expect(everything(n), n.name).toContain(g.email);

    // Zelda is erased on the hub, Quentin on desk B (the DELETE says it anonymised them).
    const erasedAtHub = await hub.call('DELETE', `/v1/customers/${zelda.customer.id}`);
    expect(erasedAtHub.status).toBe(200);
    expect(erasedAtHub.body.anonymised).toBe(true);
    const erasedAtDesk = await deskB.call('DELETE', `/v1/customers/${quentin.customer.id}`);
    expect(erasedAtDesk.body.anonymised).toBe(true);
    // Desk A, not yet told, scans both again: these answers name them and travel after the erasures.
    const late = { zelda: randomUUID(), quentin: randomUUID() };
    expect(JSON.stringify(await scan(deskA, codeOf(zelda), late.zelda))).toContain(ZELDA.phone);
    expect(JSON.stringify(await scan(deskA, codeOf(quentin), late.quentin))).toContain(QUENTIN.phone);
    await round();

    // A replayed scan answers the anonymised customer, wherever it was first made.
    const replays = [[deskA, codeOf(zelda), zeldaScan], [hub, codeOf(quentin), quentinScans.hub], [deskB, codeOf(quentin), quentinScans.deskB], [deskA, codeOf(zelda), late.zelda], [deskA, codeOf(quentin), late.quentin]] as const;
    for (const [at, code, eventId] of replays) {
      const replay = await scan(at, code, eventId);
      expect(replay.eventId).toBe(eventId);
      expect(replay.booking.customer, at.name).toEqual({ name: null, firstName: null, lastName: null, phone: null });
    }
    for (const n of [hub, deskA, deskB]) {
      const manifest = await n.call('GET', `/v1/manifest?productCode=${product.productCode}&startTime=${encodeURIComponent(START)}`);
      const text = `${everything(n)}\n${JSON.stringify(manifest.body)}`;
      for (const g of [ZELDA, QUENTIN]) for (const trace of traces(g)) expect(text.includes(trace), `${n.name} still holds "${trace}"`).toBe(false);
    }
  });
});
