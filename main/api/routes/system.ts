import { buildOpenApi, renderDocsPage } from '../openapi';
import { defineRoute, RawResponse, type RouteHost } from '../route';
import { VERSION } from '../envelope';
import { automaticBackups, BACKUP_FOLDER, KEEP_DAYS, lastBackup, PG_DUMP_COMMAND } from '../../backups';
import { backupFileBytes, backupFiles, backUpNow } from '../../backupFiles';
import { join } from 'node:path';
import { DomainError } from '../../domain/errors';
import type { Engine } from '../../engine';
import { backupNameParams, backupRequestSchema, type BackupsAnswer, type CreatedBackup } from '../../contract/settings';

/** Why this server makes no backups of its own, or null when it does. */
function noBackupsHere(engine: Engine): string | null {
  if (engine.ctx.handle.dialect === 'postgres') {
    return `This hub keeps its data in PostgreSQL, which TourDesk does not copy: back it up with pg_dump (${PG_DUMP_COMMAND}) or base backups with WAL archiving, as docs/hub.md describes`;
  }
  return engine.ctx.dataDir ? null : 'This server has no data folder to back up (its database lives elsewhere)';
}

export function registerSystemRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'The OpenAPI 3.1 description of this API',
    tag: 'System',
    // Open like /docs: both describe the API and hold no data.
    right: 'public',
    handler: async () => buildOpenApi(host.registry, VERSION),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/system/backups',
    summary: 'The last backup of this data folder, the automatic daily ones kept and every backup to download (TourDesk extension; supplier keys only)',
    tag: 'System',
    right: 'system',
    handler: async ({ engine }): Promise<BackupsAnswer> => {
      const dataDir = engine.ctx.dataDir;
      const backupAdvice = noBackupsHere(engine);
      if (!dataDir) return { lastBackup: null, automaticBackups: [], backups: [], backupFolder: null, keepDays: KEEP_DAYS, backupAdvice };
      const backups = backupAdvice ? [] : backupFiles(dataDir);
      return { lastBackup: lastBackup(dataDir), automaticBackups: automaticBackups(dataDir), backups, backupFolder: join(dataDir, BACKUP_FOLDER), keepDays: KEEP_DAYS, backupAdvice };
    },
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/system/backups',
    summary: 'Back this data folder up now, as `tourdesk backup` and the daily backup do (TourDesk extension; supplier keys only)',
    description: 'Answers `backup` once the file is written. 409 CONFLICT while another backup of the folder is being made, and on a hub on PostgreSQL (backed up with pg_dump).',
    tag: 'System',
    right: 'system',
    body: backupRequestSchema,
    handler: async ({ engine }): Promise<{ backup: CreatedBackup }> => {
      const refusal = noBackupsHere(engine);
      if (refusal) throw new DomainError('CONFLICT', refusal);
      const backup = await backUpNow(engine.ctx.handle.sqlite, engine.ctx.dataDir!);
      if (!backup) throw new DomainError('CONFLICT', 'A backup of this data folder is being made now; ask again when it is done');
      return { backup };
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/system/backups/:name',
    summary: 'Download a backup GET /v1/system/backups lists: one SQLite file, database and media (TourDesk extension; supplier keys only)',
    tag: 'System',
    right: 'system',
    params: backupNameParams,
    handler: async ({ params, engine }) => {
      const bytes = engine.ctx.dataDir && !noBackupsHere(engine) ? backupFileBytes(engine.ctx.dataDir, params.name) : undefined;
      if (!bytes) throw new DomainError('NOT_FOUND', `There is no backup named ${params.name}; GET /v1/system/backups lists them`);
      return new RawResponse('application/vnd.sqlite3', bytes, { 'content-disposition': `attachment; filename="${params.name}"`, 'cache-control': 'no-store' });
    },
  });
  // The human-readable page holds no data, so it needs no key (the calls it describes do); /v1/openapi.json is open too.
  host.app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderDocsPage(host.registry)));
  host.app.get('/health', async () => ({ requestStatus: { success: true, version: VERSION }, status: 'ok' }));
}
