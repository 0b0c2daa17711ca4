import pg from 'pg';
import { CHANGE_AREA_TABLES, type ChangeArea } from '../changeAreas';

/**
 * The PostgreSQL side of db/queries/changes.ts: per area, a token that changes whenever a table the
 * area's cache is made from may have changed. Every hub process LISTENs on `tourdesk_changes`; the
 * statement triggers on those tables (db/postgres/migrations.ts) notify the table's name at commit,
 * in this process or any other. While the listening connection is not up, every call returns a new
 * token, so nothing is served from a cache that could be stale; it reconnects by itself. This
 * process's own commits move their tables' tokens at once (`wrote`), not when their notification
 * arrives: the tables the commit notified when the write said which (`touchedTables`), every token
 * when it did not.
 */
export function postgresChangeToken(url: string): { token(area: ChangeArea): string; wrote(tables?: readonly string[]): void; close(): Promise<void> } {
  let generation = 0;
  const byTable = new Map<string, number>();
  /** This process's own commits, by table: counted apart from the notifications, which come later. */
  const ownByTable = new Map<string, number>();
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
      let own = 0;
      for (const table of CHANGE_AREA_TABLES[area]) {
        sum += byTable.get(table) ?? 0;
        own += ownByTable.get(table) ?? 0;
      }
      return `${generation}:${sum}:${own}`;
    },
    /**
     * This process committed a write (its NOTIFY comes back later): the areas of the tables it
     * touched move now, or every area when it is not known which it touched.
     */
    wrote(tables) {
      if (tables === undefined) generation++;
      else for (const table of tables) ownByTable.set(table, (ownByTable.get(table) ?? 0) + 1);
    },
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

/**
 * The cached tables each open write transaction touched, by its connection, as its fold's last
 * statement read them (migration 20261203_41): a commit without that statement (no synced row
 * changed, or a page of a desk's ops) is not in here, and moves every token.
 */
const touched = new WeakMap<object, readonly string[]>();

export function noteTouchedTables(conn: object, notified: string | null): void {
  touched.set(conn, (notified ?? '').split(' ').filter(Boolean));
}

export function touchedTables(conn: object): readonly string[] | undefined {
  const tables = touched.get(conn);
  touched.delete(conn);
  return tables;
}
