import type pg from 'pg';

/**
 * The hub's fixed hot statements, prepared once per connection (docs/performance.md, "The PostgreSQL
 * hub"): Kysely's driver sends every statement unnamed, so PostgreSQL parses and plans it again each
 * time; for a booking's rules read and answer read that planning cost more than running them. A
 * statement registered here goes as a named statement on each connection that runs it (node-postgres
 * parses it once per connection and reuses it, PostgreSQL keeps its plan). Only texts registered here
 * are named, so the server's cache per connection stays as small as this list; statements Kysely
 * builds with varying texts (multi-row inserts) stay unnamed.
 */
const names = new Map<string, string>();

/** Registers `text` (at module load) and answers it unchanged. */
export function preparedOnHub(text: string): string {
  if (!names.has(text)) names.set(text, `tourdesk_${names.size + 1}`);
  return text;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes a new pool client send registered statements by name (the pool's 'connect' event, before its first query). */
export function nameRegisteredStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (config, values, callback) => {
    const name = typeof config === 'string' && Array.isArray(values) ? names.get(config) : undefined;
    return name === undefined ? query(config, values, callback) : query({ name, text: config, values }, callback);
  };
}
