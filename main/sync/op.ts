import { z } from 'zod';
import type { StoredValues } from '../../db/syncStore';

/**
 * One op: a change to one row, as it resulted on the instance that made it (ids, codes and prices
 * included), so any instance can replay it without the request that caused it.
 * - op id = origin + seq: the origin's gapless sequence, never re-stamped by a relay;
 * - hlc: the hybrid logical clock stamp (orders last-writer-wins);
 * - entity: the table; entityId: its primary key as a JSON array;
 * - kind: insert (the whole row), update (the changed columns only), delete (a tombstone);
 * - schema: the writer's schema version (user_version), so a reader can hold what it cannot apply;
 * - continues: set on every op of a write but its last, so pages carry a write whole.
 */
/** A column's value as a row holds it: text, a number, a flag or null (never an object). */
const columnValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const opSchema = z
  .object({
    origin: z.string().regex(/^[A-Za-z0-9]{4,40}$/),
    seq: z.number().int().positive(),
    hlc: z.string().regex(/^\d{15}-\d{6}-[A-Za-z0-9]{4,40}$/),
    entity: z.string().regex(/^[a-z_]{1,60}$/),
    entityId: z.string().min(2).max(500),
    kind: z.enum(['insert', 'update', 'delete']),
    change: z.record(z.string(), columnValue).nullable(),
    schema: z.number().int().positive(),
    /** More ops of the same write follow this one: a page never ends after it (unless the write alone is over the cap). */
    continues: z.literal(true).optional(),
  })
  .superRefine((op, ctx) => {
    // The row's key as a JSON array of its key columns' values, as every op of this build writes it.
    if (keyValuesOf(op.entityId) === null) ctx.addIssue({ code: 'custom', path: ['entityId'], message: 'must be a JSON array of the row’s key values, like [1001]' });
    if ((op.kind === 'delete') !== (op.change === null)) ctx.addIssue({ code: 'custom', path: ['change'], message: op.kind === 'delete' ? 'must be null for a delete' : `must be the row's columns for an ${op.kind}` });
  });

/** An op's entityId as its key values, or null when it is not a non-empty JSON array of strings and numbers. */
export function keyValuesOf(entityId: string): (string | number)[] | null {
  let key: unknown;
  try {
    key = JSON.parse(entityId);
  } catch {
    return null;
  }
  return Array.isArray(key) && key.length > 0 && key.every((v) => typeof v === 'string' || typeof v === 'number') ? key : null;
}
/** An op as the engine handles it: a change's values are whatever its columns hold (a pushed op's are checked to be plain values). */
export type Op = Omit<z.infer<typeof opSchema>, 'change'> & { change: Record<string, unknown> | null };
/**
 * An op as a compact pull page brings it (exchange.ts): `change` without the columns it sets to
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
