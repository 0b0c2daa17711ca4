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

/**
 * A phone column's digits contain these digits: "+61 400 123 757" is found by "400123757", and by
 * the local "0400 123 757" (a leading trunk 0 is dropped: the number as written at home is the
 * international one without its country code). Spaces, dashes, dots, brackets and + are ignored.
 */
export function phoneContainsDigits(column: string, wantedDigits: string): RawBuilder<boolean> {
  let digitsOnly: RawBuilder<string> = sql<string>`coalesce(${sql.ref(column)}, '')`;
  for (const separator of [' ', '-', '.', '(', ')', '+']) digitsOnly = sql<string>`replace(${digitsOnly}, ${separator}, '')`;
  const national = wantedDigits.startsWith('0') ? wantedDigits.slice(1) : wantedDigits;
  return containsText(digitsOnly, national);
}
