import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../schema';
import type { Dialect } from '../dialect';

const STATEMENTS = 100;

/**
 * Reads a page of rows (a Kysely-built SELECT) as arrays and names the cells here: for a page of
 * 100 rows × a dozen columns, better-sqlite3's own row objects cost about twice as much. The read
 * takes Kysely's connection lock like any query on `db`, so it never sees another request's
 * transaction half-way; do not call it inside a transaction (it would wait for that transaction's lock).
 */
export function pageReader(handle: { db: Kysely<Database>; sqlite: BetterSqlite3.Database; dialect: Dialect }) {
  const { db } = handle;
  // PostgreSQL's rows come over the wire as objects anyway: the plain query.
  if (handle.dialect === 'postgres') return async <O>(query: Compilable<O>): Promise<O[]> => (await db.executeQuery(query.compile())).rows;
  const { sqlite } = handle;
  const statements = new Map<string, { statement: BetterSqlite3.Statement; names: string[] }>();
  const prepared = (text: string) => {
    let entry = statements.get(text);
    if (!entry) {
      const statement = sqlite.prepare(text).raw(true);
      entry = { statement, names: statement.columns().map((c) => c.name) };
      if (statements.size >= STATEMENTS) statements.delete(statements.keys().next().value!);
      statements.set(text, entry);
    }
    return entry;
  };
  return async function readPage<O>(query: Compilable<O>): Promise<O[]> {
    const { sql, parameters } = query.compile();
    return db.connection().execute(async () => {
      const { statement, names } = prepared(sql);
      const rows = statement.all(...parameters) as unknown[][];
      return rows.map((cells) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = cells[i];
        return row as O;
      });
    });
  };
}
