import type { EngineContext, Actor } from '../context';
import { SYSTEM_ACTOR } from '../context';
import type { CompaniesTable } from '../../../db/schema';
import { areaChangeTokenOf } from '../../../db/queries/changes';
import { findCompanyByAlias, findFirstCompany, insertCompany, updateCompany } from '../../../db/queries/companies';
import { DomainError } from '../errors';
import { CURRENCIES } from '../money';
import { isValidTimezone } from '../time';
import type { CompanyAnswer, CompanyInput } from '../../contract/settings';

/** The supplier company as the API answers it. */
export type Company = CompanyAnswer;

export function companyAliasFrom(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '').slice(0, 40) || 'company';
}

function toApi(row: CompaniesTable): Company {
  return {
    id: row.id,
    alias: row.alias,
    companyName: row.company_name,
    description: row.description,
    currency: row.currency,
    timezone: row.timezone,
    locale: row.locale,
    email: row.email,
    phone: row.phone,
    website: row.website,
    addressLine: row.address_line,
    addressLine2: row.address_line2,
    city: row.city,
    state: row.state,
    postCode: row.post_code,
    countryCode: row.country_code,
    latitude: row.latitude,
    longitude: row.longitude,
    logoUrl: row.logo_url,
  };
}

export function createCompanies(ctx: EngineContext) {
  // The company is read on almost every request, so it is cached; but `tourdesk company set` (another
  // process) or a sync peer may change it while the server runs, so the cache holds only while the
  // company's change token is the one read before the company was loaded (bookings and scans, which
  // write all the time, do not move it).
  const changes = areaChangeTokenOf(ctx.handle);
  const currentToken = () => changes('company');
  let cached: { company: Company | null; token: string } | null = null;

  async function supplierOrNull(): Promise<Company | null> {
    const token = currentToken();
    if (cached && cached.token === token) return cached.company;
    const row = await findFirstCompany(ctx.db);
    cached = { company: row ? toApi(row) : null, token };
    return cached.company;
  }

  return {
    /** The supplier company this instance runs for (one per data folder). */
    async supplier(): Promise<Company> {
      const company = await supplierOrNull();
      if (!company) throw new DomainError('NOT_FOUND', 'No supplier company is configured yet (run `tourdesk serve` once, or `tourdesk company set`)');
      return company;
    },

    supplierOrNull,

    async byAlias(alias: string): Promise<Company> {
      const row = await findCompanyByAlias(ctx.db, alias);
      if (!row) throw new DomainError('NOT_FOUND', `Company ${alias} was not found`);
      return toApi(row);
    },

    /** Creates or updates the supplier company. */
    async configure(input: CompanyInput, actor: Actor = SYSTEM_ACTOR): Promise<Company> {
      if (!input.companyName?.trim()) throw new DomainError('VALIDATION_ERROR', 'companyName is required');
      if (!(CURRENCIES as readonly string[]).includes(input.currency)) throw new DomainError('VALIDATION_ERROR', `currency ${input.currency} is not a supported currency`);
      if (!isValidTimezone(input.timezone)) throw new DomainError('VALIDATION_ERROR', `timezone ${input.timezone} is not an IANA timezone name`);
      const alias = input.alias ?? companyAliasFrom(input.companyName);
      if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(alias)) throw new DomainError('VALIDATION_ERROR', 'alias must be lower-case letters, digits and dashes');
      const existing = await supplierOrNull();
      const values = {
        alias,
        company_name: input.companyName.trim(),
        description: input.description ?? null,
        currency: input.currency,
        timezone: input.timezone,
        locale: input.locale ?? 'en_US',
        email: input.email ?? null,
        phone: input.phone ?? null,
        website: input.website ?? null,
        address_line: input.addressLine ?? null,
        address_line2: input.addressLine2 ?? null,
        city: input.city ?? null,
        state: input.state ?? null,
        post_code: input.postCode ?? null,
        country_code: input.countryCode ?? null,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        logo_url: input.logoUrl ?? null,
      };
      await ctx.write(actor, async (tx) => {
        if (existing) {
          await updateCompany(tx.db, existing.id, { ...values, updated_at: tx.now });
          await tx.journal('company', existing.id, 'update', values);
        } else {
          const id = ctx.ids.nextId();
          await insertCompany(tx.db, { id, ...values, created_at: tx.now, updated_at: tx.now });
          await tx.journal('company', id, 'create', values);
        }
      });
      cached = null;
      return (await supplierOrNull())!;
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompanies>;
