import type BetterSqlite3 from 'better-sqlite3';

/**
 * How SQLite's sync_rows keys a merge state and holds its insert stamp (migration 20261205_11, whose
 * SQL conversion is the frozen copy of this): the entity by its sync_entities number, an integer key
 * in k1/k2, any other key as its JSON text in `key`, and the stamp's wall, counter and origin number.
 */
export interface StateKey {
  entity: number;
  k1: number;
  k2: number;
  key: string;
}

export interface PackedBorn {
  at: number | null;
  count: number | null;
  by: number | null;
  text: string | null;
}

export interface SqliteRowKeys {
  /** The state's key; `add`: give an entity this file has no number for one (a write), else null (a read finds nothing). */
  keyOf(entity: string, entityId: string, add: boolean): StateKey | null;
  packBorn(stamp: string | null): PackedBorn;
  unpackBorn(row: { born_at: number | null; born_count: number | null; born_by: number | null; born: string | null }): string | null;
  /** An origin's number (sync_origins); `add`: give it one if it has none (a write), else null (a read finds nothing). */
  originNo(origin: string, add: boolean): number | null;
  originName(no: number): string;
  /** The entity's name and its key's JSON text again, from a key keyOf made (the op log's rows, ops.ts). */
  entityName(no: number): string;
  entityIdOf(key: StateKey): string;
  /** Forgets the numbers this connection added; called as each transaction's work begins (see numbering). */
  forgetAddedHere(): void;
}

const ORIGIN_FORM = /^[A-Za-z0-9]+$/;

/**
 * A name -> number table (sync_entities, sync_origins), cached. A number read that this connection
 * did not add is committed and never changes, so it is kept; one it added is kept only until the
 * next transaction begins, since that one may have rolled back and the number be given to another
 * name (as sync_shapes, shapes.ts).
 */
function numbering<Extra>(get: (name: string) => ({ no: number } & Extra) | undefined, byNo: (no: number) => string | undefined, add: (name: string) => { no: number } & Extra) {
  const byName = new Map<string, { no: number } & Extra>();
  const names = new Map<number, string>();
  const addedHere = new Set<string>();
  return {
    find(name: string, adding: boolean): ({ no: number } & Extra) | undefined {
      let found = byName.get(name);
      if (found === undefined) {
        found = get(name);
        if (found === undefined && adding) {
          found = add(name);
          addedHere.add(name);
        }
        if (found !== undefined) byName.set(name, found);
      }
      return found;
    },
    nameOf(no: number): string {
      let name = names.get(no);
      if (name === undefined) {
        name = byNo(no);
        if (name === undefined) throw new Error(`the sync tables name number ${no}, which its table lacks`);
        names.set(no, name);
      }
      return name;
    },
    forget(): void {
      for (const name of addedHere) {
        const no = byName.get(name)?.no;
        byName.delete(name);
        if (no !== undefined) names.delete(no);
      }
      addedHere.clear();
    },
  };
}

/**
 * The integer text[from, to) spells exactly as JSON.stringify writes a safe integer (no leading zero,
 * no "-0", no exponent), or null. By character: this runs per op of a catch-up.
 */
function canonicalInteger(text: string, from: number, to: number): number | null {
  const negative = text.charCodeAt(from) === 45; /* - */
  const start = negative ? from + 1 : from;
  if (start >= to || to - start > 16 || (text.charCodeAt(start) === 48 && (to - start > 1 || negative))) return null;
  let n = 0;
  for (let i = start; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? (negative ? -n : n) : null;
}

/** The integers of an entity id that is exactly JSON.stringify of `n` (1 or 2) safe integers; null otherwise. */
function integersOf(entityId: string, n: number): [number, number] | null {
  const last = entityId.length - 1;
  if ((n !== 1 && n !== 2) || entityId.charCodeAt(0) !== 91 /* [ */ || entityId.charCodeAt(last) !== 93 /* ] */) return null;
  const comma = entityId.indexOf(',');
  if ((comma === -1) !== (n === 1)) return null;
  const a = canonicalInteger(entityId, 1, n === 1 ? last : comma);
  if (a === null) return null;
  if (n === 1) return [a, 0];
  const b = canonicalInteger(entityId, comma + 1, last);
  return b === null ? null : [a, b];
}

/** A stamp in hlc.ts's form (15 digits, '-', 6 digits, '-', letters and digits): its wall, counter and origin; null otherwise. */
function hlcParts(stamp: string): [number, number, string] | null {
  if (stamp.length < 24 || stamp.charCodeAt(15) !== 45 || stamp.charCodeAt(22) !== 45) return null;
  const wall = digits(stamp, 0, 15);
  const counter = digits(stamp, 16, 22);
  const origin = stamp.slice(23);
  return wall === null || counter === null || !ORIGIN_FORM.test(origin) ? null : [wall, counter, origin];
}

function digits(text: string, from: number, to: number): number | null {
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return n;
}

export function sqliteRowKeys(sqlite: BetterSqlite3.Database): SqliteRowKeys {
  const s = {
    entity: sqlite.prepare<[string], { no: number; key_ints: number }>('SELECT no, key_ints FROM sync_entities WHERE name = ?'),
    entityName: sqlite.prepare<[number], string>('SELECT name FROM sync_entities WHERE no = ?').pluck(),
    keyInts: sqlite.prepare<[number], number>('SELECT key_ints FROM sync_entities WHERE no = ?').pluck(),
    // An entity this file's migration did not number (a newer peer's): its keys keep the text form.
    addEntity: sqlite.prepare<[string], { no: number; key_ints: number }>('INSERT INTO sync_entities (name, key_ints) VALUES (?, 0) RETURNING no, key_ints'),
    origin: sqlite.prepare<[string], { no: number }>('SELECT no FROM sync_origins WHERE origin = ?'),
    originName: sqlite.prepare<[number], string>('SELECT origin FROM sync_origins WHERE no = ?').pluck(),
    addOrigin: sqlite.prepare<[string], { no: number }>('INSERT INTO sync_origins (origin) VALUES (?) RETURNING no'),
  };
  const entities = numbering((name) => s.entity.get(name), (no) => s.entityName.get(no), (name) => s.addEntity.get(name)!);
  const origins = numbering((origin) => s.origin.get(origin), (no) => s.originName.get(no), (origin) => s.addOrigin.get(origin)!);
  // key_ints by entity number: a number's entity never changes once committed (numbering's rule), nor its key_ints.
  const keyInts = new Map<number, number>();
  return {
    keyOf(entity, entityId, add) {
      const found = entities.find(entity, add);
      if (found === undefined) return null;
      const ints = integersOf(entityId, found.key_ints);
      return ints === null ? { entity: found.no, k1: 0, k2: 0, key: entityId } : { entity: found.no, k1: ints[0], k2: ints[1], key: '' };
    },
    packBorn(stamp) {
      const parts = stamp === null ? null : hlcParts(stamp);
      if (parts === null) return { at: null, count: null, by: null, text: stamp };
      return { at: parts[0], count: parts[1], by: origins.find(parts[2], true)!.no, text: null };
    },
    unpackBorn(row) {
      if (row.born_at === null) return row.born;
      return `${String(row.born_at).padStart(15, '0')}-${String(row.born_count ?? 0).padStart(6, '0')}-${origins.nameOf(row.born_by!)}`;
    },
    originNo: (origin, add) => origins.find(origin, add)?.no ?? null,
    originName: (no) => origins.nameOf(no),
    entityName: (no) => entities.nameOf(no),
    entityIdOf({ entity, k1, k2, key }) {
      if (key !== '') return key;
      let n = keyInts.get(entity);
      if (n === undefined) {
        n = s.keyInts.get(entity);
        if (n === undefined) throw new Error(`an op names entity number ${entity}, which sync_entities lacks`);
        keyInts.set(entity, n);
      }
      return n === 1 ? `[${k1}]` : `[${k1},${k2}]`;
    },
    forgetAddedHere() {
      entities.forget();
      origins.forget();
    },
  };
}

/**
 * SQL for the sync_rows key of an entity id text `id` whose entity's key_ints is `n` (both SQL
 * expressions): what keyOf answers, for a statement that finds states of ops' rows in one pass.
 */
export function keyColumnsSql(id: string, n: string): { k1: string; k2: string; key: string } {
  const safe = (path: string) => `json_type(${id}, '${path}') = 'integer' AND abs(json_extract(${id}, '${path}')) <= 9007199254740991`;
  const ints = `(CASE WHEN ${n} IN (1, 2) AND json_valid(${id}) AND json_array_length(${id}) = ${n} AND ${safe('$[0]')} AND (${n} = 1 OR (${safe('$[1]')}))
    THEN ${id} = '[' || json_extract(${id}, '$[0]') || CASE WHEN ${n} = 2 THEN ',' || json_extract(${id}, '$[1]') ELSE '' END || ']' ELSE 0 END)`;
  return {
    k1: `(CASE WHEN ${ints} THEN json_extract(${id}, '$[0]') ELSE 0 END)`,
    k2: `(CASE WHEN ${ints} AND ${n} = 2 THEN json_extract(${id}, '$[1]') ELSE 0 END)`,
    key: `(CASE WHEN ${ints} THEN '' ELSE ${id} END)`,
  };
}
