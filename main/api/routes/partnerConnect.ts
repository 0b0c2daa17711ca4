import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { partnerConnectBodySchema } from '../../contract/partnerConnect';
import type { PartnerConnect } from '../../domain/catalogue/partnerConnect';

const codeParams = z.object({ productCode: z.string().trim().min(1).max(40) });
const PATH = '/v1/products/:productCode/partnerConnect';
/** The original service's brand word; clients of it read the settings under rezdyConnectSettings. */
const ALIAS = '/v1/products/:productCode/rezdyConnect';
const tag = 'Partner connect';

// Both keys on every answer: cheaper than telling the two paths apart, and harmless to either client.
const answer = (settings: PartnerConnect) => ({ partnerConnect: settings, rezdyConnectSettings: settings });

export function registerPartnerConnectRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: PATH,
    aliases: [ALIAS],
    summary: "Get a product's partner-connect settings",
    tag,
    right: 'catalog:read',
    params: codeParams,
    handler: async ({ params, engine }) => answer(await engine.partnerConnect.get(params.productCode)),
  });
  defineRoute(host, {
    method: 'PUT',
    path: PATH,
    aliases: [ALIAS],
    summary: "Set a product's partner-connect settings (replaces them whole)",
    tag,
    right: 'catalog:write',
    params: codeParams,
    body: partnerConnectBodySchema,
    handler: async ({ params, body, actor, engine }) => answer(await engine.partnerConnect.put(params.productCode, body, actor)),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: PATH,
    aliases: [ALIAS],
    summary: "Remove a product's partner-connect settings",
    tag,
    right: 'catalog:write',
    params: codeParams,
    handler: async ({ params, actor, engine }) => {
      await engine.partnerConnect.remove(params.productCode, actor);
      return answer(await engine.partnerConnect.get(params.productCode));
    },
  });
}
