import { buildOpenApi, renderDocsPage } from '../openapi';
import { defineRoute, type RouteHost } from '../route';
import { VERSION } from '../envelope';

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
  // The human-readable page holds no data, so it needs no key (the calls it describes do); /v1/openapi.json is open too.
  host.app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(renderDocsPage(host.registry)));
  host.app.get('/health', async () => ({ requestStatus: { success: true, version: VERSION }, status: 'ok' }));
}
