import { z } from 'zod';
import type { RouteDef, RouteRegistry } from './route';

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function parameters(def: RouteDef<any, any, any>): unknown[] {
  const out: unknown[] = [];
  for (const [location, schema] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  }
  return out;
}

const envelope = {
  type: 'object',
  required: ['requestStatus'],
  properties: {
    requestStatus: {
      type: 'object',
      required: ['success'],
      properties: {
        success: { type: 'boolean' },
        version: { type: 'string' },
        error: { type: 'object', properties: { errorCode: { type: 'string' }, errorMessage: { type: 'string' } } },
        warning: { type: 'object', properties: { warningMessage: { type: 'string' } } },
      },
    },
  },
};

/** OpenAPI 3.1 from the same zod schemas that validate requests. */
export function buildOpenApi(registry: RouteRegistry, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, def: RouteDef<any, any, any>, alias: boolean) => {
    const key = toOpenApiPath(path);
    paths[key] ??= {};
    const primary = `${def.method} ${toOpenApiPath(def.path)}`;
    paths[key][def.method.toLowerCase()] = {
      operationId: `${def.method.toLowerCase()}${key.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: def.summary,
      description: alias ? `Alias of ${primary}, kept for clients of the original service.` : def.description,
      tags: [def.tag],
      deprecated: alias || def.deprecated || undefined,
      security: def.right === 'public' ? [] : undefined,
      parameters: parameters(def),
      // A body the operation can do without (POST /v1/sync/run) is not required: no body, or an empty one, is fine.
      requestBody: def.body ? { required: !def.body.safeParse(undefined).success, content: { 'application/json': { schema: jsonSchema(def.body) } } } : undefined,
      responses: {
        '200': { description: 'Success, under the requestStatus envelope', content: { 'application/json': { schema: envelope } } },
        '4XX': { description: 'Refused: requestStatus.error says why', content: { 'application/json': { schema: envelope } } },
      },
    };
  };
  for (const def of registry.routes) {
    add(def.path, def, false);
    for (const alias of def.aliases ?? []) add(alias, def, true);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'TourDesk booking API', version, description: 'The /v1 booking API served by TourDesk on localhost. See docs/api.md.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'apiKey' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
      },
    },
    security: [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths,
  };
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A plain, readable API page rendered from the same registry (no scripts, works offline). */
export function renderDocsPage(registry: RouteRegistry): string {
  const byTag = new Map<string, RouteDef<any, any, any>[]>();
  for (const def of registry.routes) byTag.set(def.tag, [...(byTag.get(def.tag) ?? []), def]);
  const sections = [...byTag.entries()]
    .map(([tag, defs]) => {
      const rows = defs
        .map((def) => {
          const params = (parameters(def) as { name: string; in: string; required: boolean }[]).map((p) => `<code>${escape(p.name)}</code>${p.required ? '*' : ''} <small>${p.in}</small>`).join(', ');
          const aliases = (def.aliases ?? []).map((a) => `<br><small>alias: <code>${escape(toOpenApiPath(a))}</code></small>`).join('');
          return `<tr${def.deprecated ? ' class="dep"' : ''}><td><b>${def.method}</b></td><td><code>${escape(toOpenApiPath(def.path))}</code>${aliases}</td><td>${escape(def.summary)}${def.deprecated ? ' <small>(deprecated)</small>' : ''}</td><td>${params}</td><td><small>${def.right}</small></td></tr>`;
        })
        .join('\n');
      return `<h2>${escape(tag)}</h2><table><tr><th>Method</th><th>Path</th><th>What it does</th><th>Parameters</th><th>Right</th></tr>${rows}</table>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>TourDesk API</title>
<style>body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d2733}table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}td,th{border-bottom:1px solid #dde3ea;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f3f6f9}code{font-size:13px}.dep{color:#7a8593}</style>
</head><body><h1>TourDesk /v1 booking API</h1>
<p>Every call needs an API key in the <code>apiKey</code> header or query parameter (this page and <code>/v1/openapi.json</code> do not: they hold no data). Answers carry <code>requestStatus</code>; errors carry <code>errorCode</code> and <code>errorMessage</code>. The machine-readable description is <code>GET /v1/openapi.json</code>. <code>/latest/…</code> answers like <code>/v1/…</code>.</p>
${sections}</body></html>`;
}
