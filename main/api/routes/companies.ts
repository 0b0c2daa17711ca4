import { z } from 'zod';
import { defineRoute, type RouteHost } from '../route';
import type { CompanyAnswer } from '../../contract/settings';

const aliasParams = z.object({ companyAlias: z.string().min(1).max(100) });

export function registerCompanyRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/companies/alias/:companyAlias',
    aliases: ['/v1/companies/:companyAlias'],
    summary: 'Get a company by its alias',
    tag: 'Companies',
    right: 'any',
    params: aliasParams,
    handler: async ({ params, engine }): Promise<{ company: CompanyAnswer; companies: CompanyAnswer[] }> => {
      const company = await engine.companies.byAlias(params.companyAlias);
      // Some clients read `companies[0]`; both shapes carry the same object.
      return { company, companies: [company] };
    },
  });
}
