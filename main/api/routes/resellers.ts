import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { idParam } from '../../contract/common';
import { resellerSearchQuery } from '../../contract/rates';

const attachParams = z.object({ rateId: idParam, resellerId: idParam });

/** Resellers (agent companies) and the rate each is on: TourDesk extensions, suppliers only ('catalog:write'). */
export function registerResellerRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/resellers',
    summary: 'List resellers with their rate (TourDesk extension)',
    tag: 'Rates',
    right: 'catalog:write',
    query: resellerSearchQuery,
    handler: async ({ query, engine }) => ({ resellers: await engine.resellers.list(query) }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/rates/:rateId/resellers/:resellerId',
    summary: "Put a reseller on a rate (replacing the reseller's previous rate) (TourDesk extension)",
    tag: 'Rates',
    right: 'catalog:write',
    params: attachParams,
    handler: async ({ params, actor, engine }) => ({ reseller: await engine.resellers.attachRate(params.rateId, params.resellerId, actor) }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/rates/:rateId/resellers/:resellerId',
    summary: 'Take a reseller off a rate (TourDesk extension)',
    tag: 'Rates',
    right: 'catalog:write',
    params: attachParams,
    handler: async ({ params, actor, engine }) => ({ reseller: await engine.resellers.detachRate(params.rateId, params.resellerId, actor) }),
  });
}
