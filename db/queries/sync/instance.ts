import type BetterSqlite3 from 'better-sqlite3';
import type { SyncInstanceTable } from '../../schema';
import type { CaptureRow, SqliteSyncStore } from '../../syncStore';
import { CAPTURE_PAUSED_ID } from '../../syncCapture';

type SqliteInstance = Pick<
  SqliteSyncStore,
  | 'instance' | 'hubOriginNow' | 'saveClock' | 'setHub' | 'pauseCapture' | 'resumeCapture' | 'captures' | 'lastCaptureId'
  | 'dropCapturesAfter' | 'dropCapturesUpTo' | 'vector' | 'setVector' | 'deferForeignKeys' | 'predecessors' | 'raiseSequences'
>;

/** The instance's own sync state on SQLite: its row, the captured changes, the vector, the transaction's foreign keys. */
export function sqliteInstance(sqlite: BetterSqlite3.Database): SqliteInstance {
  const s = {
    instance: sqlite.prepare<[], SyncInstanceTable>('SELECT * FROM sync_instance WHERE id = 1'),
    saveClock: sqlite.prepare<[number, string | null]>('UPDATE sync_instance SET last_seq = ?, last_hlc = ? WHERE id = 1'),
    setHub: sqlite.prepare<[string | null]>('UPDATE sync_instance SET hub_origin = ? WHERE id = 1'),
    captures: sqlite.prepare<[], CaptureRow>('SELECT * FROM sync_capture WHERE id > 0 ORDER BY id'),
    lastCapture: sqlite.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM sync_capture WHERE id > 0'),
    dropCapturesAfter: sqlite.prepare<[number]>('DELETE FROM sync_capture WHERE id > ?'),
    dropCaptures: sqlite.prepare<[number]>('DELETE FROM sync_capture WHERE id > 0 AND id <= ?'),
    // While this row is there the capture triggers record nothing (see CAPTURE_PAUSED_ID).
    pauseCapture: sqlite.prepare<[]>(`INSERT INTO sync_capture (id, tbl, pk) VALUES (${CAPTURE_PAUSED_ID}, '', '')`),
    resumeCapture: sqlite.prepare<[]>(`DELETE FROM sync_capture WHERE id = ${CAPTURE_PAUSED_ID}`),
    vector: sqlite.prepare<[], { origin: string; seq: number }>('SELECT origin, seq FROM sync_vector'),
    setVector: sqlite.prepare<[string, number]>('INSERT INTO sync_vector (origin, seq) VALUES (?, ?) ON CONFLICT (origin) DO UPDATE SET seq = excluded.seq'),
    predecessors: sqlite.prepare<[string], string>('SELECT origin FROM sync_incarnations WHERE successor = ?').pluck(),
    raiseSequence: sqlite.prepare<[number, string]>('UPDATE sequences SET value = max(value, ?) WHERE name = ?'),
    /** Prepared once: sqlite.pragma() prepares its statement on every call, and every page runs this. */
    deferForeignKeys: sqlite.prepare<[]>('PRAGMA defer_foreign_keys = ON'),
  };
  return {
    instance: () => s.instance.get()!,
    hubOriginNow: () => s.instance.get()!.hub_origin,
    saveClock: (lastSeq, lastHlc) => void s.saveClock.run(lastSeq, lastHlc),
    setHub: (origin) => void s.setHub.run(origin),
    pauseCapture: () => void s.pauseCapture.run(),
    resumeCapture: () => void s.resumeCapture.run(),
    captures: () => s.captures.all(),
    lastCaptureId: () => s.lastCapture.get()?.id ?? 0,
    dropCapturesAfter: (id) => void s.dropCapturesAfter.run(id),
    dropCapturesUpTo: (id) => void s.dropCaptures.run(id),
    vector: () => Object.fromEntries(s.vector.all().map((r) => [r.origin, r.seq])) as Record<string, number>,
    setVector: (origin, seq) => void s.setVector.run(origin, seq),
    deferForeignKeys: () => void s.deferForeignKeys.run(),
    predecessors: (origin) => s.predecessors.all(origin),
    raiseSequences: (globalSeq, orderSeq) => {
      s.raiseSequence.run(globalSeq, 'global');
      s.raiseSequence.run(orderSeq, 'order');
    },
  };
}
