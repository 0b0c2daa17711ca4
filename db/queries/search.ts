import { sql, type RawBuilder } from 'kysely';

/**
 * "column (or expression) contains text", case-insensitive for ASCII, with %, _ and \ in the text
 * taken literally (SQLite honours the backslash only with an ESCAPE clause). The one place every
 * search goes through, so a PostgreSQL build can swap in ILIKE here.
 */
export function containsText(column: string | RawBuilder<string>, text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const target = typeof column === 'string' ? sql.ref(column) : column;
  return sql<boolean>`${target} LIKE ${pattern} ESCAPE '\\'`;
}
