import { sql, type Kysely, type KyselyPlugin, type RootOperationNode, type UnknownRow, type QueryResult, RawNode } from 'kysely';
import type { Migration } from '../migrations';
import { translateDdl } from './ddl';

/** Serialises migrators: two hub processes starting together run each migration once. */
const MIGRATION_LOCK = 2_126_021;

/** The schema version is a one-row table (SQLite keeps it in `user_version`). */
export async function schemaVersion(db: Kysely<any>): Promise<number> {
  await sql`CREATE TABLE IF NOT EXISTS tourdesk_schema (id INT PRIMARY KEY CHECK (id = 1), version INT NOT NULL)`.execute(db).catch(async (error) => {
    // Two processes creating it at once: one wins, the other finds it there. Which error the loser
    // gets depends on where the two met: the table's name (42P07), its row type's name (42710, "type
    // tourdesk_schema already exists", seen once in CI) or the catalogue's unique index (23505).
    if (!['23505', '42P07', '42710'].includes((error as { code?: string }).code ?? '')) throw error;
  });
  await sql`INSERT INTO tourdesk_schema (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING`.execute(db);
  const { rows } = await sql<{ version: number }>`SELECT version FROM tourdesk_schema WHERE id = 1`.execute(db);
  return Number(rows[0].version);
}

/**
 * Rewrites the raw SQLite DDL a migration runs into PostgreSQL's (db/postgres/ddl.ts) and keeps the
 * foreign keys for the end of the migration, following a table renamed on the way.
 */
class TranslateDdl implements KyselyPlugin {
  readonly foreignKeys: string[] = [];

  transformQuery({ node }: { node: RootOperationNode }): RootOperationNode {
    if (!RawNode.is(node) || node.sqlFragments.length !== 1) return node;
    const text = node.sqlFragments[0];
    const rename = /^\s*ALTER\s+TABLE\s+(\w+)\s+RENAME\s+TO\s+(\w+)\s*$/i.exec(text);
    if (rename) {
      for (let i = 0; i < this.foreignKeys.length; i++) this.foreignKeys[i] = this.foreignKeys[i].replace(new RegExp(`^ALTER TABLE ${rename[1]} `), `ALTER TABLE ${rename[2]} `);
      return node;
    }
    const translated = translateDdl(text);
    this.foreignKeys.push(...translated.foreignKeys);
    return RawNode.createWithSql(translated.sql);
  }

  async transformResult({ result }: { result: QueryResult<UnknownRow> }): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** Runs one migration on PostgreSQL: its own per-dialect `postgres` step, else its SQLite DDL translated. */
async function runMigration(trx: Kysely<any>, migration: Migration): Promise<void> {
  const plugin = new TranslateDdl();
  const translated = trx.withPlugin(plugin);
  await (migration.postgres ?? migration.up)(translated as Kysely<unknown>);
  for (const statement of plugin.foreignKeys) await sql.raw(statement).execute(trx);
}

/** Applies the migrations the database has not seen yet, each in its own transaction (PostgreSQL's DDL is transactional). */
export async function migratePostgres(db: Kysely<any>, migrations: readonly Migration[]): Promise<number> {
  await schemaVersion(db);
  let applied = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
      const version = await schemaVersion(trx);
      if (version >= migrations.length) return true;
      await runMigration(trx, migrations[version]);
      await sql`UPDATE tourdesk_schema SET version = ${version + 1} WHERE id = 1`.execute(trx);
      applied++;
      return false;
    });
    if (done) return applied;
  }
}
