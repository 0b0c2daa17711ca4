import pg from 'pg';
import { CHANGE_AREA_TABLES, type ChangeArea } from '../changeAreas';

/**
 * The PostgreSQL side of db/queries/changes.ts: per area, a token that changes whenever a table the
 * area's cache is made from may have changed. Every hub process LISTENs on `tourdesk_changes`; the
 * statement triggers on those tables (db/postgres/migrations.ts) notify the table's name at commit,
 * in this process or any other. While the listening connection is not up, every call returns a new
 * token, so nothing is served from a cache that could be stale; it reconnects by itself. This
 * process's own commits move every token at once (`wrote`), not when their notification arrives.
 */
export function postgresChangeToken(url: string): { token(area: ChangeArea): string; wrote(): void; close(): Promise<void> } {
  let generation = 0;
  const byTable = new Map<string, number>();
  let listening = false;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const connect = () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, application_name: 'tourdesk-changes' });
    client = next;
    const lost = () => {
      if (client !== next) return;
      listening = false;
      generation++;
      client = null;
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(connect, 1000).unref();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => void byTable.set(message.payload ?? '', (byTable.get(message.payload ?? '') ?? 0) + 1));
    next
      .connect()
      .then(() => next.query('LISTEN tourdesk_changes'))
      .then(() => {
        // Anything committed before LISTEN took effect is covered: the token moves now.
        generation++;
        listening = client === next;
      })
      .catch(lost);
  };
  connect();

  let unique = 0;
  return {
    token: (area) => {
      if (!listening) return `down:${generation}:${unique++}`;
      let sum = 0;
      for (const table of CHANGE_AREA_TABLES[area]) sum += byTable.get(table) ?? 0;
      return `${generation}:${sum}`;
    },
    /** This process committed a write: every area's token moves at once (its NOTIFY comes back later). */
    wrote: () => void generation++,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}
