import { SyncError } from './errors';

/**
 * Version vectors: for each origin, the highest sequence number applied here with no gap below
 * it. Ops of one origin are applied strictly in sequence, so "highest contiguous" is all a peer
 * needs to know to send exactly what is missing.
 */
export type Vector = Record<string, number>;

export function seqOf(vector: Vector, origin: string): number {
  return vector[origin] ?? 0;
}

/** The element-wise maximum: what both sides together have seen. */
export function mergeVectors(a: Vector, b: Vector): Vector {
  const out: Vector = { ...a };
  for (const [origin, seq] of Object.entries(b)) out[origin] = Math.max(out[origin] ?? 0, seq);
  return out;
}

/** True when `a` has seen everything `b` has. */
export function covers(a: Vector, b: Vector): boolean {
  return Object.entries(b).every(([origin, seq]) => seqOf(a, origin) >= seq);
}

/** How many ops `have` lacks of those `want` describes. */
export function missingCount(have: Vector, want: Vector): number {
  let missing = 0;
  for (const [origin, seq] of Object.entries(want)) missing += Math.max(0, seq - seqOf(have, origin));
  return missing;
}

function gap(origin: string, expected: number, got: number): SyncError {
  return new SyncError('GAP', `A page skips ops of origin ${origin}: expected seq ${expected}, got ${got}; the page is refused`);
}

/**
 * Checks a page against a vector: each origin's ops must continue its sequence without a gap
 * (ops already covered are duplicates and are skipped). Returns the vector after the page.
 */
export function advanceVector(vector: Vector, ops: readonly { origin: string; seq: number }[]): Vector {
  const out: Vector = { ...vector };
  for (const op of ops) {
    const at = seqOf(out, op.origin);
    if (op.seq <= at) continue;
    if (op.seq !== at + 1) throw gap(op.origin, at + 1, op.seq);
    out[op.origin] = op.seq;
  }
  return out;
}
