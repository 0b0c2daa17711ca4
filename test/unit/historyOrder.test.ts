import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../db/queries/manifest';
import { historyView } from '../../main/domain/checkin/manifestView';

const view = { timezone: 'Australia/Sydney', keyNames: new Map<number, string>() };
const T = 1_795_000_000_000;

function event(id: string, kind: string, at: number, parent: string | null = null): EventRow {
  return {
    event_id: id,
    kind,
    session_id: 1,
    order_number: 'T1-00001',
    participant_id: 7,
    code: null,
    undoes_event_id: null,
    result: kind === 'SCAN' ? 'OK' : null,
    override_json: null,
    note: null,
    device: 'Gate',
    api_key_id: null,
    key_name: null,
    occurred_at: at,
    recorded_at: at,
    parent_event_id: parent,
  };
}

const ids = (rows: EventRow[]) => historyView(rows, view).map((h) => h.eventId);

describe("a participant's history (historyView)", () => {
  it('puts a scan before the check-in it made when they share their times, whatever order the rows came in', () => {
    // PostgreSQL can return the check-in first (the scan row was updated after it was written).
    const scan1 = event('s1', 'SCAN', T);
    const checkIn = event('c1', 'CHECK_IN', T, 's1');
    const scan2 = event('s2', 'SCAN', T);
    expect(ids([checkIn, scan1, scan2])).toEqual(['s1', 'c1', 's2']);
    expect(ids([scan1, checkIn, scan2])).toEqual(['s1', 'c1', 's2']);
    expect(ids([checkIn, scan2, scan1])).toEqual(['s2', 's1', 'c1']);
  });

  it('keeps time order first: a child with other times than its parent is placed by its own times', () => {
    const scan = event('s1', 'SCAN', T + 10);
    const laterCheckIn = event('c1', 'CHECK_IN', T + 20, 's1');
    const earlier = event('u1', 'UNDO', T);
    expect(ids([laterCheckIn, scan, earlier])).toEqual(['u1', 's1', 'c1']);
  });

  it('is every row once, in time order, each child after its parent, for any arrival order', () => {
    const rows = fc.array(fc.record({ at: fc.integer({ min: 0, max: 3 }), childOf: fc.option(fc.nat(20), { nil: null }) }), { minLength: 1, maxLength: 12 }).map((specs) => {
      const list: EventRow[] = [];
      for (const [i, spec] of specs.entries()) {
        const parent = spec.childOf !== null && spec.childOf < i ? list[spec.childOf] : undefined;
        // A child is one write with its parent (same times), as a scan and its check-ins are.
        list.push(event(`e${i}`, parent ? 'CHECK_IN' : 'SCAN', parent ? parent.occurred_at : T + spec.at, parent ? parent.event_id : null));
      }
      return list;
    });
    fc.assert(
      fc.property(rows.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }))), ([list, arrived]) => {
        const out = ids(arrived);
        expect([...out].sort()).toEqual(list.map((r) => r.event_id).sort());
        const at = new Map(list.map((r) => [r.event_id, r.occurred_at]));
        for (let i = 1; i < out.length; i++) expect(at.get(out[i - 1])!).toBeLessThanOrEqual(at.get(out[i])!);
        for (const row of list) if (row.parent_event_id) expect(out.indexOf(row.parent_event_id)).toBeLessThan(out.indexOf(row.event_id));
      }),
    );
  });
});
