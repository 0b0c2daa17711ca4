import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { pickupListBodySchema, pickupListReplaceSchema, pickupSearchQuery, type ProductPickupsAnswer } from '../../contract/pickups';

const idParams = z.object({ pickupListId: idParam });
const codeParams = z.object({ productCode: z.string().trim().min(1).max(40) });
const tag = 'Pickup lists';

export function registerPickupRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/pickups',
    summary: 'Create a pickup list',
    tag,
    right: 'catalog:write',
    body: pickupListBodySchema,
    handler: async ({ body, actor, engine }) => ({ pickupList: await engine.pickups.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/pickups',
    summary: 'Search pickup lists (searchString: name contains)',
    tag,
    right: 'catalog:read',
    query: pickupSearchQuery,
    handler: async ({ query, engine }) => ({ pickupListList: await engine.pickups.search(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/pickups/:pickupListId',
    summary: 'Retrieve a pickup list',
    tag,
    right: 'catalog:read',
    params: idParams,
    handler: async ({ params, engine }) => ({ pickupList: await engine.pickups.get(params.pickupListId) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/pickups/:pickupListId',
    summary: 'Replace a pickup list (locations and notes not sent are removed)',
    tag,
    right: 'catalog:write',
    params: idParams,
    body: pickupListReplaceSchema,
    handler: async ({ params, body, actor, engine }) => ({ pickupList: await engine.pickups.replace(params.pickupListId, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/pickups/:pickupListId',
    summary: 'Delete a pickup list; refused while a product uses it',
    tag,
    right: 'catalog:write',
    params: idParams,
    handler: async ({ params, actor, engine }) => {
      await engine.pickups.remove(params.pickupListId, actor);
      return {};
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/products/:productCode/pickups',
    summary: "The product's pickup locations (an empty list when it has none)",
    tag: 'Products',
    right: 'catalog:read',
    params: codeParams,
    handler: async ({ params, engine }): Promise<ProductPickupsAnswer> => {
      const list = await engine.pickups.forProduct(params.productCode);
      return list ? { pickupLocations: list.pickupLocations, pickupList: list } : { pickupLocations: [] };
    },
  });
}
