import type { SyncStore } from '../../syncStore';
import { columnsOfChange } from '../../syncEncoding';
import type { PostgresQuery, SharedSyncState } from './query';

type PostgresRows = Pick<SyncStore, 'readRow' | 'upsertRow' | 'deleteRow' | 'rowsPage' | 'allRows'>;

/** The synced tables' rows on PostgreSQL; table and column names come from information_schema, never from an op. */
export function postgresRows({ run, first }: PostgresQuery, shared: SharedSyncState): PostgresRows {
  async function columnsOf(table: string): Promise<Set<string>> {
    let columns = shared.tableColumns.get(table);
    if (!columns) {
      const rows = await run<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [table]);
      columns = new Set(rows.map((r) => r.name));
      shared.tableColumns.set(table, columns);
    }
    return columns;
  }
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const where = (pk: readonly string[], from = 1) => pk.map((c, i) => `${ident(c)} = $${i + from}`).join(' AND ');
  const orderBy = (pk: readonly string[]) => pk.map(ident).join(', ');

  return {
    readRow: async (table, pk, key) => (await first<Record<string, unknown>>(`SELECT * FROM ${ident(table)} WHERE ${where(pk)}`, key)) ?? null,
    async upsertRow(table, pk, values, nulls) {
      const known = await columnsOf(table);
      const names = columnsOfChange(values, nulls);
      const columns = [...new Set(names)].filter((c) => known.has(c)).sort();
      const updates = columns.filter((c) => !pk.includes(c));
      const args = columns.map((c) => (values[c] === undefined ? null : values[c]));
      await run(
        `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (${pk.map(ident).join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}` : 'NOTHING'}`,
        args,
      );
    },
    deleteRow: async (table, pk, key) => void (await run(`DELETE FROM ${ident(table)} WHERE ${where(pk)}`, key)),
    rowsPage: (table, pk, limit, offset) => run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} ORDER BY ${orderBy(pk)} LIMIT $1 OFFSET $2`, [limit, offset]),
    allRows: (table, pk) => run<Record<string, unknown>>(`SELECT * FROM ${ident(table)} ORDER BY ${orderBy(pk)}`),
  };
}
