import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { productBodySchema, productSearchQuery, productUpdateSchema } from '../../contract/products';

const codeParams = z.object({ productCode: z.string().trim().min(1).max(40) });

export function registerProductRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/products',
    summary: 'Create a product',
    tag: 'Products',
    right: 'catalog:write',
    body: productBodySchema,
    handler: async ({ body, actor, engine }) => ({ product: await engine.products.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/products',
    summary: 'Search products',
    tag: 'Products',
    right: 'catalog:read',
    query: productSearchQuery,
    handler: async ({ query, engine }) => ({ products: await engine.products.search(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/products/marketplace',
    summary: 'Search marketplace products (those agents may book over the API)',
    tag: 'Products',
    right: 'catalog:read',
    query: productSearchQuery,
    handler: async ({ query, engine }) => ({ products: await engine.products.search({ ...query, marketplace: true }) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/products/:productCode',
    summary: 'Get a product',
    tag: 'Products',
    right: 'catalog:read',
    params: codeParams,
    handler: async ({ params, seen, engine }) => ({ product: await engine.products.get(params.productCode, seen) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/products/:productCode',
    summary: 'Update a product (fields left out keep their value)',
    tag: 'Products',
    right: 'catalog:write',
    params: codeParams,
    body: productUpdateSchema,
    handler: async ({ params, body, actor, engine }) => ({ product: await engine.products.update(params.productCode, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/products/:productCode',
    summary: 'Delete (archive) a product; refused while it has upcoming bookings',
    tag: 'Products',
    right: 'catalog:write',
    params: codeParams,
    handler: async ({ params, actor, engine }) => {
      await engine.products.remove(params.productCode, actor);
      return {};
    },
  });
}
