import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { aBooking, aProduct, aSession, aVoucher } from '../fixtures/builders';
import { nodesClosedAfterEach } from '../sync/nodes';

/**
 * On the PostgreSQL hub a booking's create runs beside other creates (db/postgres/transaction.ts),
 * with every row its rules read claimed (db/queries/claims.ts). Two hub engines on one database,
 * each call going to the other one, and every booking of a round sent at once: each rule must hold
 * as it does when writes take turns.
 */
const { node } = nodesClosedAfterEach();

const START = '2030-02-01T09:00:00+11:00';

async function hubWith(productOverrides: Parameters<typeof aProduct>[0], seats: number) {
  const hub = await node('hub', { instanceNo: 1, dialect: 'postgres' });
  const product = (await hub.call('POST', '/v1/products', aProduct(productOverrides))).body.product;
  const session = await hub.call('POST', '/v1/availability', aSession(product.productCode, { seats }));
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  return { hub, productCode: product.productCode as string };
}

const errorCodes = (answers: { status: number; body: any }[]) => answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.requestStatus?.error?.errorCode}`);

describe('bookings created side by side on a PostgreSQL hub', () => {
  it('sell a session’s last seats once', async () => {
    const { hub, productCode } = await hubWith({}, 7);
    const answers = await Promise.all(Array.from({ length: 16 }, () => hub.call('POST', '/v1/bookings', aBooking(productCode, START, [{ optionLabel: 'Adult', value: 1 }]))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
    expect(errorCodes(answers)).toEqual(Array(9).fill('409 NO_SEATS'));
    const held = hub.sql.prepare("SELECT sum(i.seats_held)::int AS n FROM booking_items i JOIN bookings b USING (order_number) WHERE b.status = 'CONFIRMED'").get() as { n: number };
    expect(held.n).toBe(7);
  });

  it('claim their session and voucher; a quote claims neither, so it never waits for an open create', async () => {
    const { hub, productCode } = await hubWith({}, 50);
    const code = 'SIDEBYSIDEQ';
    expect((await hub.call('POST', '/v1/vouchers', aVoucher({ code, value: 500 }))).status).toBe(200);
    const body = aBooking(productCode, START, [{ optionLabel: 'Adult', value: 1 }], { vouchers: [code] });
    expect((await hub.call('POST', '/v1/bookings', body)).status).toBe(200);
    const { id: sessionId } = hub.sql.prepare('SELECT session_id::int AS id FROM booking_items').get() as { id: number };
    const keys = (hub.sql.prepare('SELECT key FROM tourdesk_claims ORDER BY key').all() as { key: string }[]).map((r) => r.key);
    expect(keys).toEqual([`session:${sessionId}`, `voucher:${code}`]);
    // A create of that session and voucher, open: both claims held until it ends.
    hub.sql.exec(`BEGIN; UPDATE tourdesk_claims SET n = n + 1 WHERE key IN ('session:${sessionId}', 'voucher:${code}')`);
    try {
      let settled = false;
      const quoted = hub.call('POST', '/v1/bookings/quote', body).finally(() => (settled = true));
      let waited = false;
      while (!settled && !waited) {
        // Waits on this connection's open transaction only (other test files share the server).
        waited = (hub.sql.prepare('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY (pg_blocking_pids(pid))').get() as { n: number }).n > 0;
        await sleep(10);
      }
      expect(waited, 'the quote waited for a lock').toBe(false);
      expect((await quoted).status).toBe(200);
    } finally {
      hub.sql.exec('ROLLBACK');
    }
  });

  it('give a charter session one booking', async () => {
    const { hub, productCode } = await hubWith({ charter: true }, 10);
    const answers = await Promise.all(Array.from({ length: 6 }, () => hub.call('POST', '/v1/bookings', aBooking(productCode, START, [{ optionLabel: 'Adult', value: 1 }]))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(errorCodes(answers)).toEqual(Array(5).fill('409 CHARTER_TAKEN'));
  });

  it('never spend a voucher’s balance twice', async () => {
    const { hub, productCode } = await hubWith({}, 50);
    const code = 'SIDEBYSIDE120';
    expect((await hub.call('POST', '/v1/vouchers', aVoucher({ code, value: 120 }))).status).toBe(200);
    // 100.00 a booking: the first takes 100 of the voucher's 120, the next the 20 left, then it is used up.
    const answers = await Promise.all(Array.from({ length: 4 }, () => hub.call('POST', '/v1/bookings', aBooking(productCode, START, [{ optionLabel: 'Adult', value: 2 }], { vouchers: [code] }))));
    const sold = answers.filter((a) => a.status === 200);
    expect(sold).toHaveLength(2);
    expect(errorCodes(answers)).toEqual(Array(2).fill('422 BUSINESS_RULE'));
    const redeemed = hub.sql.prepare('SELECT sum(amount_minor)::int AS n FROM voucher_redemptions WHERE voucher_code = ? AND reversed_at IS NULL').get(code) as { n: number };
    expect(redeemed.n).toBe(12_000);
  });

  it('give each imported code to one booking', async () => {
    const { hub, productCode } = await hubWith({ qrCodeType: 'EXTERNAL', barcodeOutputType: 'ORDER' }, 50);
    const codes = ['SBS-1', 'SBS-2', 'SBS-3', 'SBS-4'];
    expect((await hub.call('POST', `/v1/products/${productCode}/externalCodes`, { codes })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 9 }, () => hub.call('POST', '/v1/bookings', aBooking(productCode, START, [{ optionLabel: 'Adult', value: 1 }]))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(errorCodes(answers)).toEqual(Array(5).fill('409 CONFLICT'));
    const assigned = hub.sql.prepare('SELECT code, assigned_to FROM external_codes ORDER BY code').all() as { code: string; assigned_to: string | null }[];
    expect(assigned.map((r) => r.code)).toEqual(codes);
    expect(new Set(assigned.map((r) => r.assigned_to)).size).toBe(4);
    expect(assigned.every((r) => r.assigned_to !== null)).toBe(true);
  });
});
