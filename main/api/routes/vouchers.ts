import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import { voucherBodySchema, voucherSearchQuery } from '../../contract/vouchers';

const codeParams = z.object({ voucherCode: z.string().trim().min(1).max(40) });

/** Vouchers: suppliers read them all ('catalog:read'), agents only those they sold (the domain filters); suppliers create them. */
export function registerVoucherRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/vouchers',
    summary: 'Search vouchers by code, internal reference, internal notes or source order',
    tag: 'Vouchers',
    right: 'catalog:read',
    query: voucherSearchQuery,
    handler: async ({ query, actor, seen, engine }) => ({ vouchers: await engine.vouchers.search(query, actor, seen) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/vouchers/:voucherCode',
    summary: 'Get a voucher (status derived from its redemptions and expiry)',
    tag: 'Vouchers',
    right: 'catalog:read',
    params: codeParams,
    handler: async ({ params, actor, engine }) => ({ voucher: await engine.vouchers.get(params.voucherCode, actor) }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/vouchers',
    summary: 'Create a voucher (TourDesk extension)',
    tag: 'Vouchers',
    right: 'catalog:write',
    body: voucherBodySchema,
    handler: async ({ body, actor, engine }) => ({ voucher: await engine.vouchers.create(body, actor) }),
  });
}
