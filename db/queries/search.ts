import { sql, type RawBuilder } from 'kysely';

/**
 * "column contains text", case-insensitive for ASCII, with %, _ and \ in the text taken literally.
 * Kept here so a PostgreSQL build can swap in ILIKE in one place.
 */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`;
}
