import { JOIN_PROGRESS_KEY, type SyncStore } from '../../syncStore';
import type { PostgresQuery } from './query';

type PostgresSnapshotJoin = Pick<SyncStore, 'rowsAfter' | 'joinProgress' | 'saveJoinProgress'>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A snapshot's pages by key on the PostgreSQL hub, and a join's progress (as SQLite's, db/queries/sync/snapshotJoin.ts). */
export function postgresSnapshotJoin({ run, first }: PostgresQuery): PostgresSnapshotJoin {
  return {
    rowsAfter(table, pk, limit, after) {
      const order = pk.map(ident).join(', ');
      if (!after) return run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} ORDER BY ${order} LIMIT $1`, [limit]);
      // ROW(...) keeps a one-column key a row comparison too; it walks the order ORDER BY walks.
      const params = pk.map((_, i) => `$${i + 2}`).join(', ');
      return run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} WHERE ROW(${order}) > ROW(${params}) ORDER BY ${order} LIMIT $1`, [limit, ...after]);
    },
    joinProgress: async () => (await first<{ value: string }>('SELECT value FROM settings WHERE key = $1', [JOIN_PROGRESS_KEY]))?.value ?? null,
    async saveJoinProgress(json) {
      if (json === null) await run('DELETE FROM settings WHERE key = $1', [JOIN_PROGRESS_KEY]);
      else await run('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [JOIN_PROGRESS_KEY, json]);
    },
  };
}
