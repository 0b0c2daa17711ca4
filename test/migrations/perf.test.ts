import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/connection';

let dir: string;
let handle: DbHandle;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tourdesk-perf-migration-'));
  handle = await openDatabase(join(dir, 'db.sqlite'), { migrate: true });
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('20261123_60_perf', () => {
  it('sums live voucher redemptions from the index alone (no table reads)', () => {
    const plan = handle.sqlite
      .prepare("EXPLAIN QUERY PLAN SELECT voucher_code, sum(amount_minor), count(*) FROM voucher_redemptions WHERE voucher_code IN ('A', 'B') AND reversed_at IS NULL GROUP BY voucher_code")
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('COVERING INDEX voucher_redemptions_live');
  });

  it('leaves one index starting with voucher_code on voucher_redemptions', () => {
    const indexes = handle.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'voucher_redemptions' AND sql IS NOT NULL").all() as { name: string }[];
    const onCode = indexes.filter(({ name }) => (handle.sqlite.pragma(`index_info(${name})`) as { seqno: number; name: string }[]).find((c) => c.seqno === 0)?.name === 'voucher_code');
    expect(onCode).toEqual([{ name: 'voucher_redemptions_live' }]);
  });
});

describe('20261130_01_booking_status_index', () => {
  it('sums the seats held on a session by live bookings from indexes alone (no table reads)', () => {
    const plan = handle.sqlite
      .prepare(
        "EXPLAIN QUERY PLAN SELECT booking_items.session_id, sum(booking_items.seats_held) FROM booking_items INNER JOIN bookings ON bookings.order_number = booking_items.order_number WHERE booking_items.session_id IN (1) AND bookings.status IN ('CONFIRMED', 'PENDING') GROUP BY booking_items.session_id",
      )
      .all() as { detail: string }[];
    const details = plan.map((p) => p.detail);
    expect(details).toContainEqual(expect.stringContaining('COVERING INDEX booking_items_session_seats'));
    expect(details).toContainEqual(expect.stringContaining('COVERING INDEX bookings_order_status'));
  });
});
