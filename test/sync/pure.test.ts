import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareHlc, createHlcClock, decodeHlc, encodeHlc, measureSkew, type Hlc } from '../../main/sync/hlc';
import { advanceVector, covers, mergeVectors, missingCount } from '../../main/sync/vector';
import { EMPTY_ROW, isVisible, joinStates, materialize, mergeAll, mergeOp, purgePersonal } from '../../main/sync/merge';
import type { MergeRule } from '../../main/sync/entities';
import { bookingSetKey, oversoldOf } from '../../main/domain/checkin/oversold';
import { canonicalJson } from '../../main/sync/op';
import { pullOps, WIRE_VALUES, type CompactPullResponse } from '../../main/sync/wire';

const stamp = (wall: number, counter = 0, origin = 'AAAA') => encodeHlc({ wall, counter, origin });

describe('hybrid logical clock', () => {
  it('never runs backwards when the wall clock does', () => {
    let wall = 10_000;
    const clock = createHlcClock({ origin: 'DESK1', now: () => wall });
    const a = clock.tick();
    wall = 5_000; // someone set the clock back
    const b = clock.tick();
    expect(compareHlc(b, a)).toBe(1);
    expect(b.wall).toBe(10_000);
  });

  it('stamps a local sale even when the local clock is years ahead', () => {
    const clock = createHlcClock({ origin: 'DESK1', now: () => Date.UTC(2090, 0, 1) });
    expect(clock.tick().wall).toBe(Date.UTC(2090, 0, 1));
  });

  it('refuses a remote stamp far in the future and keeps its own clock unchanged', () => {
    const clock = createHlcClock({ origin: 'HUB1', now: () => 1_000_000, maxFutureMs: 60_000 });
    const before = clock.last();
    expect(() => clock.receive({ wall: 1_000_000 + 61_000, counter: 0, origin: 'DESK1' })).toThrow(expect.objectContaining({ refusal: 'CLOCK_AHEAD' }));
    expect(clock.last()).toEqual(before);
  });

  it('moves past a received stamp, so the next local stamp orders after it', () => {
    const clock = createHlcClock({ origin: 'HUB1', now: () => 1_000 });
    clock.receive({ wall: 2_000, counter: 7, origin: 'DESK1' });
    const next = clock.tick();
    expect(compareHlc(next, { wall: 2_000, counter: 7, origin: 'DESK1' })).toBe(1);
  });

  it('orders encoded stamps as text exactly as compareHlc does', () => {
    const hlc = fc.record({ wall: fc.integer({ min: 0, max: 2 ** 46 }), counter: fc.integer({ min: 0, max: 999_999 }), origin: fc.constantFrom('AAAA', 'BBBB', 'HUB01') });
    fc.assert(
      fc.property(hlc, hlc, (a: Hlc, b: Hlc) => {
        const text = encodeHlc(a) < encodeHlc(b) ? -1 : encodeHlc(a) > encodeHlc(b) ? 1 : 0;
        expect(text).toBe(compareHlc(a, b));
        expect(decodeHlc(encodeHlc(a))).toEqual(a);
      }),
    );
  });

  it('reads exactly the stamps encodeHlc writes and refuses any other text', () => {
    const stamp = /^(\d{15})-(\d{6})-([A-Za-z0-9]+)$/;
    const near = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '9', '-', 'A', 'z', ' ', '/', ':', '@', '[', '`', '{', 'é'), maxLength: 30 }),
      fc.tuple(fc.stringMatching(/^\d{13,16}$/), fc.constantFrom('-', '_'), fc.stringMatching(/^\d{5,7}$/), fc.constantFrom('-', ''), fc.stringMatching(/^[A-Za-z0-9:.é -]{0,6}$/)).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(near, (text) => {
        const match = stamp.exec(text);
        if (match) expect(decodeHlc(text)).toEqual({ wall: Number(match[1]), counter: Number(match[2]), origin: match[3] });
        else expect(() => decodeHlc(text)).toThrow('Not a clock stamp');
      }),
      { numRuns: 2000 },
    );
  });

  it('gives strictly increasing stamps for any sequence of wall readings and receipts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.option(fc.integer({ min: 0, max: 1e6 })))), (steps) => {
        let wall = 0;
        const clock = createHlcClock({ origin: 'AAAA', now: () => wall, maxFutureMs: Infinity });
        let previous = clock.last();
        for (const [w, remote] of steps) {
          wall = w;
          if (remote !== null) clock.receive({ wall: remote, counter: 0, origin: 'BBBB' });
          const next = clock.tick();
          expect(compareHlc(next, previous)).toBe(1);
          previous = next;
        }
      }),
    );
  });

  it('measures skew from the middle of the round trip', () => {
    expect(measureSkew(10_500, 1_000, 1_200)).toBe(9_400);
  });
});

describe('version vectors', () => {
  it('advances an origin only by its next sequence number, skipping duplicates', () => {
    expect(advanceVector({ A: 2 }, [{ origin: 'A', seq: 2 }, { origin: 'A', seq: 3 }, { origin: 'B', seq: 1 }])).toEqual({ A: 3, B: 1 });
  });

  it('refuses a page with a gap in an origin’s sequence', () => {
    expect(() => advanceVector({ A: 2 }, [{ origin: 'A', seq: 4 }])).toThrow(expect.objectContaining({ refusal: 'GAP' }));
  });

  it('merges element-wise: commutative, associative, idempotent, and covering both', () => {
    const vector = fc.dictionary(fc.constantFrom('A', 'B', 'C', 'D'), fc.nat(100));
    fc.assert(
      fc.property(vector, vector, vector, (a, b, c) => {
        expect(mergeVectors(a, b)).toEqual(mergeVectors(b, a));
        expect(mergeVectors(mergeVectors(a, b), c)).toEqual(mergeVectors(a, mergeVectors(b, c)));
        expect(mergeVectors(a, a)).toEqual(a);
        expect(covers(mergeVectors(a, b), a) && covers(mergeVectors(a, b), b)).toBe(true);
        expect(missingCount(mergeVectors(a, b), b)).toBe(0);
      }),
    );
  });
});

const RULES: MergeRule[] = ['catalogue', 'booking', 'lww', 'event', 'customer'];
const STATUSES = ['PROCESSING', 'NEW', 'ON_HOLD', 'CONFIRMED', 'CANCELLED', 'ABANDONED_CART'];

/** Ops on one row with unique stamps (one op id, one stamp), as real ops are. */
const opsArb = fc
  .array(
    fc.record({
      kind: fc.constantFrom('insert' as const, 'update' as const, 'delete' as const),
      status: fc.constantFrom(...STATUSES),
      note: fc.option(fc.string({ maxLength: 3 })),
      email: fc.option(fc.constantFrom('a@x.example', 'b@x.example')),
      erase: fc.boolean(),
    }),
    { maxLength: 8 },
  )
  .map((specs) =>
    specs.map((s, i) => ({
      hlc: stamp(1_000 + ((i * 7919) % 13), i, 'ORIG'),
      kind: s.kind,
      change: s.kind === 'delete' ? null : { status: s.status, note: s.note, email: s.email, ...(s.erase ? { anonymised_at: 5 } : {}) },
    })),
  );

describe('merge rules', () => {
  for (const rule of RULES) {
    it(`${rule}: joining a snapshot's state with ours is the same as merging both sets of ops`, () => {
      fc.assert(
        fc.property(opsArb, fc.nat(8), (ops, cut) => {
          const mine = ops.filter((_, i) => i % 2 === 0 || i < cut);
          const theirs = ops.filter((_, i) => i % 2 === 1 || i < cut);
          const all = mergeAll(ops, rule);
          const joined = joinStates(mergeAll(mine, rule), mergeAll(theirs, rule), rule);
          expect(isVisible(joined, rule)).toBe(isVisible(all, rule));
          if (isVisible(all, rule)) expect(materialize(joined, rule)).toEqual(materialize(all, rule));
          expect([joined.born, joined.deleted, joined.erased]).toEqual([all.born, all.deleted, all.erased]);
        }),
      );
    });

    it(`${rule}: any order, any duplicates, any grouping give the same row`, () => {
      fc.assert(
        fc.property(opsArb.chain((ops) => fc.tuple(fc.constant(ops), fc.shuffledSubarray(ops, { minLength: ops.length, maxLength: ops.length }), fc.array(fc.nat(Math.max(0, ops.length - 1)), { maxLength: 4 }))), ([ops, shuffled, dupIndexes]) => {
          const inOrder = mergeAll(ops, rule);
          const withDuplicates = mergeAll([...shuffled, ...dupIndexes.map((i) => ops[i]).filter(Boolean)], rule);
          expect(withDuplicates).toEqual(inOrder);
          expect(materialize(withDuplicates, rule)).toEqual(materialize(inOrder, rule));
          // Associative: merging the second half onto the first half's state is the same as all at once.
          const half = Math.floor(ops.length / 2);
          expect(mergeAll(ops.slice(half), rule, mergeAll(ops.slice(0, half), rule))).toEqual(inOrder);
          expect(isVisible(withDuplicates, rule)).toBe(isVisible(inOrder, rule));
        }),
      );
    });
  }

  it('booking status goes to the highest precedence, whichever stamp is later', () => {
    const confirmedLater = mergeAll(
      [
        { hlc: stamp(1), kind: 'insert', change: { status: 'CANCELLED' } },
        { hlc: stamp(2), kind: 'update', change: { status: 'CONFIRMED' } },
      ],
      'booking',
    );
    expect(confirmedLater.values.status).toBe('CANCELLED');
    const processingThenConfirmed = mergeAll(
      [
        { hlc: stamp(2), kind: 'insert', change: { status: 'PROCESSING' } },
        { hlc: stamp(1), kind: 'update', change: { status: 'CONFIRMED' } },
      ],
      'booking',
    );
    expect(processingThenConfirmed.values.status).toBe('CONFIRMED');
  });

  it('keeps the latest writer of each field separately', () => {
    const state = mergeAll(
      [
        { hlc: stamp(1), kind: 'insert', change: { comments: 'a', internal_notes: 'x' } },
        { hlc: stamp(3, 0, 'HUB1'), kind: 'update', change: { comments: 'hub' } },
        { hlc: stamp(2, 0, 'DESK'), kind: 'update', change: { comments: 'desk', internal_notes: 'desk' } },
      ],
      'lww',
    );
    expect(state.values).toEqual({ comments: 'hub', internal_notes: 'desk' });
  });

  it('never loses a booking to a tombstone', () => {
    const state = mergeAll([{ hlc: stamp(1), kind: 'insert', change: { status: 'CONFIRMED' } }, { hlc: stamp(2), kind: 'delete', change: null }], 'booking');
    expect(isVisible(state, 'booking')).toBe(true);
  });

  it('hides a deleted line unless it is inserted again later', () => {
    const deleted = mergeAll([{ hlc: stamp(1), kind: 'insert', change: { value: 1 } }, { hlc: stamp(2), kind: 'delete', change: null }], 'lww');
    expect(isVisible(deleted, 'lww')).toBe(false);
    expect(isVisible(mergeOp(deleted, { hlc: stamp(3), kind: 'insert', change: { value: 2 } }, 'lww'), 'lww')).toBe(true);
  });

  it('keeps an erased customer erased: a later edit brings no personal data back', () => {
    const state = mergeAll(
      [
        { hlc: stamp(1), kind: 'insert', change: { first_name: 'Ana', email: 'ana@x.example', anonymised_at: null } },
        { hlc: stamp(2), kind: 'update', change: { first_name: null, email: null, anonymised_at: 2 } },
        { hlc: stamp(3, 0, 'DESK'), kind: 'update', change: { email: 'ana@new.example' } },
      ],
      'customer',
    );
    expect(materialize(state, 'customer')).toMatchObject({ email: null, first_name: null, anonymised_at: 2 });
    expect(state.erased).not.toBeNull();
  });

  it('purges personal columns from a stored op', () => {
    expect(purgePersonal({ id: 5, first_name: 'Ana', email: 'a@x.example', created_at: 1 })).toEqual({ id: 5, first_name: null, email: null, created_at: 1 });
  });

  it('starts from an empty row', () => {
    expect(isVisible(EMPTY_ROW, 'lww')).toBe(false);
  });
});

describe('overselling', () => {
  const load = { sessionId: 7, capacity: 4, bookings: [{ orderNumber: 'B2', seats: 3 }, { orderNumber: 'A1', seats: 2 }] };

  it('flags a session holding more seats than it has, naming every booking', () => {
    expect(oversoldOf(load, new Set())).toEqual({ sessionId: 7, capacity: 4, seatsHeld: 5, bookingSet: 'A1,B2', orderNumbers: ['A1', 'B2'], acknowledged: false });
  });

  it('counts an acknowledgement only for the exact set of bookings acknowledged', () => {
    expect(oversoldOf(load, new Set(['A1,B2']))!.acknowledged).toBe(true);
    const grown = { ...load, bookings: [...load.bookings, { orderNumber: 'C3', seats: 1 }] };
    expect(oversoldOf(grown, new Set(['A1,B2']))!.acknowledged).toBe(false);
  });

  it('does not flag a full session', () => {
    expect(oversoldOf({ ...load, capacity: 5 }, new Set())).toBeNull();
    expect(bookingSetKey(['b', 'a', 'b'])).toBe('a,b');
  });
});

describe('canonical JSON', () => {
  it('is the same text for the same content in any key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(canonicalJson({ a: [{ c: null, d: 2 }], b: 1 }));
  });
});

describe('the value-array pull encoding (wire 3)', () => {
  const head = { origin: 'HUBAAAAA', instanceNo: 1, catalogueOwner: 'HUBAAAAA', schema: { min: 1, max: 99 }, knownInstances: {}, now: 0, vector: {}, hasMore: false, cursor: 0, remaining: 0 };
  const page = (rows: unknown[][], shapes: string[][]) => ({ ...head, wire: WIRE_VALUES, origins: ['HUBAAAAA'], shapes, rows }) as unknown as CompactPullResponse;

  it('reads a change sent as values with its columns listed once, and null columns as a list', () => {
    const { ops } = pullOps(page([[0, 1, '001894665600000-000000', 'customers', '[1]', 'insert', [1, 'Ada'], 1, 99, 1, 0]], [['id', 'first_name'], ['email']]));
    expect(ops).toEqual([{ origin: 'HUBAAAAA', seq: 1, hlc: '001894665600000-000000-HUBAAAAA', entity: 'customers', entityId: '[1]', kind: 'insert', change: { id: 1, first_name: 'Ada' }, schema: 99, nulls: ['email'], continues: true, stored: { columns: ['id', 'first_name'], values: [1, 'Ada'] } }]);
  });

  it('refuses a page whose values do not fit the columns it names, or that names a column __proto__', () => {
    expect(() => pullOps(page([[0, 1, '001894665600000-000000', 'customers', '[1]', 'insert', [1], -1, 99, 0, 0]], [['id', 'first_name']]))).toThrow(/does not fit/);
    expect(() => pullOps(page([[0, 1, '001894665600000-000000', 'customers', '[1]', 'insert', [1], -1, 99, 0, 5]], [['id']]))).toThrow(/does not list/);
    expect(() => pullOps(page([[0, 1, '001894665600000-000000', 'customers', '[1]', 'insert', [1, {}], -1, 99, 0, 0]], [['id', '__proto__']]))).toThrow(/__proto__/);
  });
});
