import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { categoryBodySchema, categorySearchQuery, categoryUpdateSchema } from '../../contract/categories';
import { paging } from '../../contract/query';

const idParams = z.object({ categoryId: idParam });
const productParams = z.object({ categoryId: idParam, productCode: z.string().trim().min(1).max(40) });
const tag = 'Categories';

export function registerCategoryRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/categories',
    summary: 'Search categories (search: name contains; visible: true or false)',
    tag,
    right: 'catalog:read',
    query: categorySearchQuery,
    handler: async ({ query, engine }) => ({ categories: await engine.categories.search(query) }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/categories',
    summary: 'Create a category (TourDesk extension)',
    tag,
    right: 'catalog:write',
    body: categoryBodySchema,
    handler: async ({ body, actor, engine }) => ({ category: await engine.categories.create(body, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/categories/:categoryId',
    summary: 'Get a category',
    tag,
    right: 'catalog:read',
    params: idParams,
    handler: async ({ params, engine }) => ({ category: await engine.categories.get(params.categoryId) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/categories/:categoryId',
    summary: 'Update a category; fields left out keep their value (TourDesk extension)',
    tag,
    right: 'catalog:write',
    params: idParams,
    body: categoryUpdateSchema,
    handler: async ({ params, body, actor, engine }) => ({ category: await engine.categories.update(params.categoryId, body, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/categories/:categoryId',
    summary: 'Delete a category (TourDesk extension); its products stay',
    tag,
    right: 'catalog:write',
    params: idParams,
    handler: async ({ params, actor, engine }) => {
      await engine.categories.remove(params.categoryId, actor);
      return {};
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/categories/:categoryId/products',
    summary: 'List the products of a category',
    tag,
    right: 'catalog:read',
    params: idParams,
    query: z.object(paging),
    handler: async ({ params, query, engine }) => ({ products: await engine.categories.products(params.categoryId, query) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/categories/:categoryId/products/:productCode',
    summary: 'Add a product to a category',
    tag,
    right: 'catalog:write',
    params: productParams,
    handler: async ({ params, actor, engine }) => {
      await engine.categories.addProduct(params.categoryId, params.productCode, actor);
      return { category: await engine.categories.get(params.categoryId), product: await engine.products.get(params.productCode) };
    },
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/categories/:categoryId/products/:productCode',
    summary: 'Remove a product from a category',
    tag,
    right: 'catalog:write',
    params: productParams,
    handler: async ({ params, actor, engine }) => {
      await engine.categories.removeProduct(params.categoryId, params.productCode, actor);
      return { category: await engine.categories.get(params.categoryId) };
    },
  });
}
