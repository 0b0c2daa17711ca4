import { defineRoute, type RouteHost } from '../route';
import { DomainError } from '../../domain/errors';
import { apiKeyCreateSchema, apiKeyParams, type ApiKeyAnswer, type ApiKeyCreated } from '../../contract/apiKeys';

/**
 * API keys from the desk's settings (TourDesk extension; supplier keys only, like the CLI's
 * `tourdesk keys`). The plaintext key is answered once, by the create; lists show its prefix.
 */
export function registerApiKeyRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/apiKeys',
    summary: 'The API keys of this instance, revoked ones included, with their last use (never the keys themselves)',
    tag: 'Keys',
    right: 'system',
    handler: async ({ engine }): Promise<{ apiKeys: ApiKeyAnswer[] }> => ({ apiKeys: await engine.apiKeys.list() }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/apiKeys',
    summary: 'Create an API key; the answer holds the key, which is never shown again',
    tag: 'Keys',
    right: 'system',
    body: apiKeyCreateSchema,
    handler: async ({ body, actor, engine }): Promise<ApiKeyCreated> => {
      const { id, key } = await engine.apiKeys.create({ role: body.role, name: body.name, resellerId: body.resellerId ?? null }, actor);
      const apiKey = (await engine.apiKeys.list()).find((k) => k.id === id)!;
      return { apiKey, key };
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/apiKeys/:keyId',
    summary: 'Revoke an API key (it stops working at once; revoked keys stay listed)',
    tag: 'Keys',
    right: 'system',
    params: apiKeyParams,
    handler: async ({ params, actor, engine }): Promise<{ apiKey: ApiKeyAnswer }> => {
      // Revoking the key a page is signed in with would lock that page out mid-click; the CLI can still do it.
      if (actor.keyId === params.keyId) throw new DomainError('CONFLICT', 'This is the key you are signed in with; sign in with another supplier key to revoke it');
      const existing = (await engine.apiKeys.list()).find((k) => k.id === params.keyId);
      if (!existing) throw new DomainError('NOT_FOUND', `API key ${params.keyId} was not found`);
      if (existing.revoked) throw new DomainError('CONFLICT', `API key ${params.keyId} is already revoked`);
      await engine.apiKeys.revoke(String(params.keyId), actor);
      return { apiKey: (await engine.apiKeys.list()).find((k) => k.id === params.keyId)! };
    },
  });
}
