import { defineRoute, type RouteHost } from '../route';
import { VERSION } from '../envelope';
import { companyUpdateSchema, type CompanyAnswer, type InstanceAnswer } from '../../contract/settings';

/** What the desk's settings and status bar read and edit (TourDesk extensions). */
export function registerSettingsRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/company',
    summary: 'The supplier company this instance runs for (TourDesk extension)',
    tag: 'Companies',
    right: 'any',
    handler: async ({ engine }): Promise<{ company: CompanyAnswer }> => ({ company: await engine.companies.supplier() }),
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/company',
    summary: 'Change the supplier company: only the fields sent (TourDesk extension; supplier keys only)',
    tag: 'Companies',
    right: 'system',
    body: companyUpdateSchema,
    handler: async ({ body, actor, engine }): Promise<{ company: CompanyAnswer }> => {
      const current = await engine.companies.supplier();
      const { id: _id, ...kept } = current;
      const changed = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      return { company: await engine.companies.configure({ ...kept, ...changed, companyName: body.companyName ?? current.companyName }, actor) };
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/system/instance',
    summary: 'This instance (number, API version), the key the request came with, and (supplier keys) the data folder',
    tag: 'System',
    right: 'any',
    handler: async ({ actor, engine }): Promise<InstanceAnswer> => {
      const company = await engine.companies.supplierOrNull();
      return {
        instance: {
          instanceNo: engine.instanceNo,
          version: VERSION,
          key: { id: actor.keyId, name: actor.name, role: actor.role },
          ...(actor.role === 'supplier' || actor.role === 'system' ? { dataFolder: engine.ctx.dataDir } : {}),
          company: company && { locale: company.locale, timezone: company.timezone, currency: company.currency },
        },
      };
    },
  });
}
