/**
 * Whether a database error says the data does not fit the tables (a value of the wrong type, a
 * missing required value, a key that names nothing): the input's fault, not the server's. On
 * SQLite: constraint and datatype errors (STRICT tables); on PostgreSQL: SQLSTATE classes 22 (data
 * exception) and 23 (integrity constraint violation). Anything else (a locked or full disk, a lost
 * connection) is not.
 */
export function isDataRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if ((error as Error).name === 'SqliteError') return /^SQLITE_(CONSTRAINT|MISMATCH)/.test(code);
  return /^2[23][0-9A-Z]{3}$/.test(code);
}
