import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';

const codeParams = z.object({ productCode: z.string().trim().min(1).max(40) });
const importBody = z.object({ codes: z.array(z.string().max(1000)).min(1, 'send at least one code').max(100_000) });

/** TourDesk extension: the imported code list of qrCodeType EXTERNAL products. */
export function registerExternalCodeRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'POST',
    path: '/v1/products/:productCode/externalCodes',
    summary: 'Import QR codes for a product with qrCodeType EXTERNAL (TourDesk extension)',
    tag: 'Products',
    right: 'catalog:write',
    params: codeParams,
    body: importBody,
    bodyLimit: 8 * 1024 * 1024,
    handler: async ({ params, body, actor, engine }) => ({ externalCodes: await engine.externalCodes.import(params.productCode, body.codes, actor) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/products/:productCode/externalCodes',
    summary: 'How many imported QR codes a product has, and how many are still free (TourDesk extension)',
    tag: 'Products',
    right: 'catalog:write',
    params: codeParams,
    handler: async ({ params, engine }) => ({ externalCodes: await engine.externalCodes.stock(params.productCode) }),
  });
}
