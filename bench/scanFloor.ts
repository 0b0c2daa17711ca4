import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type BetterSqlite3 from 'better-sqlite3';
import { afterPoll } from './harness';

type Row = Record<string, unknown>;
/** What one scan stored, read back from the engine's file: its events, their sync ops and journal entries. */
export interface ScanRows {
  events: Row[];
  ops: Row[];
  journal: Row[];
}

/** The rows the engine's next write adds, read back after `write` ran (by rowid, so exactly that write's). */
export async function rowsOfWrite(sqlite: BetterSqlite3.Database, write: () => Promise<unknown>): Promise<ScanRows> {
  const tables = { events: 'checkin_events', ops: 'sync_op_rows', journal: 'op_log' } as const;
  const before = Object.fromEntries(Object.entries(tables).map(([k, t]) => [k, sqlite.prepare<[], { n: number | null }>(`SELECT max(rowid) AS n FROM ${t}`).get()?.n ?? 0]));
  await write();
  const after = (key: keyof typeof tables) => sqlite.prepare<[number], Row>(`SELECT * FROM ${tables[key]} WHERE rowid > ? ORDER BY rowid`).all(before[key]);
  return { events: after('events'), ops: after('ops'), journal: after('journal') };
}

/**
 * The scan's storage floor: the bare server's lookup, then the rows and bookkeeping the engine
 * stores for a scan, written with raw statements in one IMMEDIATE transaction on a copy of the
 * file (same schema, capture triggers, pragmas): the SCAN event with its stored answer and the
 * CHECK_IN it made (when the participant is not checked in yet), their sync ops and journal entries, the
 * sequence, the instance's clock and vector, the capture pause and the captured rows dropped. No
 * engine code runs: what is left between this and the engine is the engine's JavaScript and reads.
 */
export function scanStorageFloor(sqlite: BetterSqlite3.Database, lookupSql: string, templates: { admitted: ScanRows; alreadyIn: ScanRows }) {
  const lookup = sqlite.prepare<[string], { id: number; order_number: string }>(lookupSql);
  const insertOf = (table: string, row: Row) => {
    const columns = Object.keys(row);
    return sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  };
  const statements = {
    event: insertOf('checkin_events', templates.admitted.events[0]),
    op: insertOf('sync_op_rows', Object.fromEntries(Object.entries(templates.admitted.ops[0]).filter(([c]) => c !== 'arrival'))),
    journal: insertOf('op_log', Object.fromEntries(Object.entries(templates.admitted.journal[0]).filter(([c]) => c !== 'seq'))),
    sequence: sqlite.prepare("UPDATE sequences SET value = value + 2 WHERE name = 'global'"),
    pause: sqlite.prepare("INSERT INTO sync_capture (id, tbl, pk) VALUES (-1, '', '')"),
    resume: sqlite.prepare('DELETE FROM sync_capture WHERE id = -1'),
    dropCaptures: sqlite.prepare('DELETE FROM sync_capture WHERE id > 0'),
    clock: sqlite.prepare('UPDATE sync_instance SET last_seq = ?, last_hlc = ? WHERE id = 1'),
    vector: sqlite.prepare('INSERT INTO sync_vector (origin, seq) VALUES (?, ?) ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq'),
  };
  const originName = sqlite.prepare<[number], string>('SELECT origin FROM sync_origins WHERE no = ?').pluck();
  // Admitted when the participant has no check-in yet in this copy, as the engine decides on its own.
  const checkedIn = sqlite.prepare<[number], { one: number }>("SELECT 1 AS one FROM checkin_events WHERE participant_id = ? AND kind = 'CHECK_IN' LIMIT 1");
  let seq = 1_000_000_000;
  let n = 0;
  const write = sqlite.transaction((code: string, eventId: string) => {
    const found = lookup.get(code);
    const rows = found && !checkedIn.get(found.id) ? templates.admitted : templates.alreadyIn;
    const ids = new Map<unknown, string>();
    for (const event of rows.events) ids.set(event.event_id, event.parent_event_id ? `${eventId}.${++n}` : eventId);
    for (const event of rows.events) {
      statements.event.run({ ...event, event_id: ids.get(event.event_id), parent_event_id: event.parent_event_id ? eventId : null, participant_id: found?.id ?? null });
    }
    statements.sequence.run();
    for (const { seq: _seq, ...entry } of rows.journal) statements.journal.run({ ...entry, op_id: `floor:${++n}`, entity_id: ids.get(entry.entity_id) ?? entry.entity_id });
    statements.pause.run();
    let origin = 0;
    // sync_op_rows keeps an event's key (its event id, text) whole in `key` and the origin as its number (migration 20261206_31).
    for (const { arrival: _arrival, ...op } of rows.ops) {
      origin = Number(op.origin);
      statements.op.run({ ...op, seq: ++seq, key: `["${ids.get(JSON.parse(String(op.key))[0]) ?? eventId}"]` });
    }
    statements.clock.run(seq, String(rows.ops.at(-1)?.hlc ?? ''));
    statements.vector.run(originName.get(origin), seq);
    statements.resume.run();
    statements.dropCaptures.run();
    return rows.events[0].answer_json as string;
  });
  return (input: { code: string; eventId: string }): string => write.immediate(input.code, input.eventId);
}

/** A bare node:http server answering each POST body with `answer(parsed body)`, after the poll phase (bench/harness.ts afterPoll). */
export async function bareScanServer(answer: (input: never) => string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      afterPoll(() => {
        const body = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as never);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"scan":${body}}`);
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}
