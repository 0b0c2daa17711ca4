import { describe, expect, it } from 'vitest';
import type { SyncStore } from '../../db/syncStore';
import { keepErased, NO_LINKS, type WrittenLinks } from '../../main/sync/erasure';

const SCAN = '["scan-1"]';
const CHECK_IN = '["scan-1.7"]';

/** A store that knows one booking (B1) of one customer (9), erased or not, and records what it is asked. */
function storeOf(erased: boolean) {
  const asked: string[] = [];
  const answered = JSON.stringify({ booking: { customer: { phone: '+61 400 000 000' } } });
  const rows: Record<string, Record<string, unknown>> = {
    [SCAN]: { event_id: 'scan-1', order_number: 'B1', answer_json: answered },
    [CHECK_IN]: { event_id: 'scan-1.7', order_number: 'B1', answer_json: null },
  };
  const answers: Partial<Record<keyof SyncStore, (...args: never[]) => unknown>> = {
    readRow: (_table: string, _pk: readonly string[], key: readonly unknown[]) => rows[JSON.stringify(key)] ?? null,
    customersOfBooking: () => [9],
    rowState: () => (erased ? { erased: true } : null),
    opsOfEntity: () => [],
    heldOfEntity: () => [],
    upsertRow: (_table: string, _pk: readonly string[], values: Record<string, unknown>) => void (rows[JSON.stringify([values.event_id])] = values),
  };
  const q = new Proxy({} as SyncStore, {
    get: (_t, name: string) => (...args: never[]) => {
      asked.push(name);
      const answer = answers[name as keyof SyncStore];
      if (!answer) throw new Error(`unexpected ${name}`);
      return Promise.resolve(answer(...args));
    },
  });
  return { q, asked, rows };
}

const touched = [{ entity: 'checkin_events', entityId: SCAN }, { entity: 'checkin_events', entityId: CHECK_IN }];
const written: WrittenLinks = { ...NO_LINKS, answeredOrderOfEvent: new Map([[SCAN, 'B1'], [CHECK_IN, null]]) };

describe("keepErased and a write's new check-in events", () => {
  it('takes the booking of a new event with an answer from its change, and reads no event back', async () => {
    const { q, asked } = storeOf(false);
    await keepErased(q, touched, written);
    expect(asked).toEqual(['customersOfBooking', 'rowState']);
  });

  it('still blanks the answer a new scan of an erased customer stored', async () => {
    const { q, rows } = storeOf(true);
    await keepErased(q, touched, written);
    expect(String(rows[SCAN].answer_json)).not.toContain('+61 400 000 000');
  });

  it('reads an event back when the write did not insert it (a remote page, an edit)', async () => {
    const { q, asked } = storeOf(false);
    await keepErased(q, touched);
    expect(asked.filter((name) => name === 'readRow')).toHaveLength(2);
  });
});
