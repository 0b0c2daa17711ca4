import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { extraBodySchema, extraSearchQuery, extraUpdateSchema } from '../../contract/extras';

const idParams = z.object({ extraId: idParam });
const tag = 'Extras';

export function registerExtraRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/extra',
    summary: 'Create an extra',
    tag,
    right: 'catalog:write',
    body: extraBodySchema,
    handler: async ({ body, actor, engine }) => ({ extra: await engine.extras.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/extra',
    summary: 'Search extras (searchString: name or description contains)',
    tag,
    right: 'catalog:read',
    query: extraSearchQuery,
    handler: async ({ query, engine }) => ({ extras: await engine.extras.search(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/extra/:extraId',
    summary: 'Retrieve an extra',
    tag,
    right: 'catalog:read',
    params: idParams,
    handler: async ({ params, engine }) => ({ extra: await engine.extras.get(params.extraId) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/extra/:extraId',
    summary: 'Update an extra (fields left out keep their value)',
    tag,
    right: 'catalog:write',
    params: idParams,
    body: extraUpdateSchema,
    handler: async ({ params, body, actor, engine }) => ({ extra: await engine.extras.update(params.extraId, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/extra/:extraId',
    summary: 'Delete an extra; refused while a product offers it',
    tag,
    right: 'catalog:write',
    params: idParams,
    handler: async ({ params, actor, engine }) => {
      await engine.extras.remove(params.extraId, actor);
      return {};
    },
  });
}
