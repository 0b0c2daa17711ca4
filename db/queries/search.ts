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
 * The digits of a search typed as a phone number ("0400 123 757", "+61 (4) 00-123"), else none: a
 * text with letters ("T1-00003" has digits too) searches no phone. Shared by the bookings search
 * (SQL) and the manifest search (in memory), so both take the same texts as phone numbers.
 */
export function phoneSearchDigits(text: string): string {
  return /^[+\d\s().-]+$/.test(text) ? text.replace(/\D/g, '') : '';
}

/**
 * The digits to look for in a stored number: a leading trunk 0 dropped, since the number as written
 * at home ("0400 123 757") is the international one ("+61 400 123 757") without its country code.
 */
export function nationalDigits(digits: string): string {
  return digits.startsWith('0') ? digits.slice(1) : digits;
}

/**
 * A phone column's digits contain these digits (nationalDigits: the local form finds the
 * international one). Spaces, dashes, dots, brackets and + are ignored.
 */
export function phoneContainsDigits(column: string, wantedDigits: string): RawBuilder<boolean> {
  let digitsOnly: RawBuilder<string> = sql<string>`coalesce(${sql.ref(column)}, '')`;
  for (const separator of [' ', '-', '.', '(', ')', '+']) digitsOnly = sql<string>`replace(${digitsOnly}, ${separator}, '')`;
  return containsText(digitsOnly, nationalDigits(wantedDigits));
}
