import { buildOpenApi, renderDocsPage } from '../openapi';
import { defineRoute, type RouteHost } from '../route';
import { VERSION } from '../envelope';
import { automaticBackups, BACKUP_FOLDER, KEEP_DAYS, lastBackup } from '../../backups';
import { join } from 'node:path';
import type { BackupsAnswer } from '../../contract/settings';

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
    summary: 'The last backup of this data folder and the automatic daily ones kept (TourDesk extension; supplier keys only)',
    tag: 'System',
    right: 'system',
    handler: async ({ engine }): Promise<BackupsAnswer> => {
      const dataDir = engine.ctx.dataDir;
      if (!dataDir) return { lastBackup: null, automaticBackups: [], backupFolder: null, keepDays: KEEP_DAYS };
      return { lastBackup: lastBackup(dataDir), automaticBackups: automaticBackups(dataDir), backupFolder: join(dataDir, BACKUP_FOLDER), keepDays: KEEP_DAYS };
    },
  });
  // The human-readable page holds no data, so it needs no key (the calls it describes do); /v1/openapi.json is open too.
  host.app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderDocsPage(host.registry)));
  host.app.get('/health', async () => ({ requestStatus: { success: true, version: VERSION }, status: 'ok' }));
}
