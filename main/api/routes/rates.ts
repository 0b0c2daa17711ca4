import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { productRateSchema, rateBodySchema, rateSearchQuery, rateUpdateSchema } from '../../contract/rates';

const rateParams = z.object({ rateId: idParam });
const productParams = z.object({ rateId: idParam, productCode: z.string().trim().min(1).max(40) });

/**
 * Rates: suppliers read and manage them ('catalog:write' is held by suppliers only); an agent
 * ('catalog:read') sees only the rate of its own reseller, the domain filters that.
 */
export function registerRateRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/rates/search',
    summary: 'Search rates by name and product',
    tag: 'Rates',
    right: 'catalog:read',
    query: rateSearchQuery,
    handler: async ({ query, actor, engine }) => ({ rates: await engine.rates.search(query, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/rates/:rateId',
    summary: 'Get a rate',
    tag: 'Rates',
    right: 'catalog:read',
    params: rateParams,
    handler: async ({ params, actor, engine }) => ({ rate: await engine.rates.get(params.rateId, actor) }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/rates',
    summary: 'Create a rate (TourDesk extension)',
    tag: 'Rates',
    right: 'catalog:write',
    body: rateBodySchema,
    handler: async ({ body, actor, engine }) => ({ rate: await engine.rates.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/rates/:rateId',
    summary: 'Rename a rate and/or replace its product list (TourDesk extension)',
    tag: 'Rates',
    right: 'catalog:write',
    params: rateParams,
    body: rateUpdateSchema,
    handler: async ({ params, body, actor, engine }) => ({ rate: await engine.rates.update(params.rateId, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/rates/:rateId',
    summary: 'Delete a rate; its resellers are left without one (TourDesk extension)',
    tag: 'Rates',
    right: 'catalog:write',
    params: rateParams,
    handler: async ({ params, actor, engine }) => {
      await engine.rates.remove(params.rateId, actor);
      return {};
    },
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/rates/:rateId/products/:productCode',
    summary: "Add a product to a rate, or replace the product's terms there",
    tag: 'Rates',
    right: 'catalog:write',
    params: productParams,
    body: productRateSchema,
    handler: async ({ params, body, actor, engine }) => ({ rate: await engine.rates.putProduct(params.rateId, params.productCode, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/rates/:rateId/products/:productCode',
    summary: 'Remove a product from a rate',
    tag: 'Rates',
    right: 'catalog:write',
    params: productParams,
    handler: async ({ params, actor, engine }) => ({ rate: await engine.rates.removeProduct(params.rateId, params.productCode, actor) }),
  });
}
