import type { z } from 'zod';
import type { opSchema } from '../contract/sync';
import type { NewOpRow, StoredValues } from '../../db/syncStore';

/** An op (opSchema in main/contract/sync.ts says what each field is) as the engine handles it: a change's values are whatever its columns hold (a pushed op's are checked to be plain values). */
export type Op = Omit<z.infer<typeof opSchema>, 'change'> & { change: Record<string, unknown> | null };
/**
 * An op as a compact pull page brings it (wire.ts): `change` without the columns it sets to
 * null, which `nulls` names. Applying a new row's insert takes it as it is (stored and written
 * without building the full change); anything else completes it first (completeOp).
 */
export type WireOp = Op & {
  nulls?: readonly string[];
  /**
   * The change as a value-array page (wire 3) brought it: a new row's insert is stored from it as it
   * is instead of taking `change` apart again (encodeChange); only pullOps sets it, and only the insert
   * of a new row reads it (a change replaced on the way, as erasure's, leaves it behind).
   */
  stored?: StoredValues;
};

/** The op with its null columns back in its change. */
export function completeOp(op: WireOp): Op {
  if (op.nulls === undefined) return op;
  const change: Record<string, unknown> = { ...op.change };
  for (const column of op.nulls) if (!(column in change)) change[column] = null;
  const whole: Op = { origin: op.origin, seq: op.seq, hlc: op.hlc, entity: op.entity, entityId: op.entityId, kind: op.kind, change, schema: op.schema };
  if (op.continues) whole.continues = true;
  return whole;
}
export type OpKind = Op['kind'];

/** The op as the store writes it into the op log. */
export function opRowOf(op: WireOp): NewOpRow {
  return { origin: op.origin, seq: op.seq, hlc: op.hlc, entity: op.entity, entity_id: op.entityId, kind: op.kind, change: op.change, schema: op.schema, nulls: op.nulls, write_continues: op.continues ? 1 : null };
}

export function opId(op: Pick<Op, 'origin' | 'seq'>): string {
  return `${op.origin}:${op.seq}`;
}

export function keyOf(pk: readonly unknown[]): string {
  return JSON.stringify(pk);
}

/** Content that must be identical for two copies of one op id (a clone of a data folder breaks this). */
export function opFingerprint(op: Op): string {
  return JSON.stringify([op.hlc, op.entity, op.entityId, op.kind, canonicalJson(op.change)]);
}

/** JSON with object keys sorted, so equal content has equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
