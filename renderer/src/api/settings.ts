import type { ApiKeyAnswer } from '../../../main/contract/apiKeys';
import type { CompanyAnswer } from '../../../main/contract/settings';
import { api, type ApiConfig } from './client';

/** The calls the settings screen makes, each named for what it does. */

/** The company fields the settings screen edits (PUT /v1/company takes these). */
export type Company = Pick<CompanyAnswer, 'companyName' | 'timezone' | 'currency' | 'email' | 'phone' | 'website'>;

export const loadCompany = (config: ApiConfig) => api(config, 'GET /v1/company').then((r) => r.company);

/** Saves the company as typed, trimmed; an empty contact field is stored as none. */
export function saveCompany(config: ApiConfig, form: Company): Promise<CompanyAnswer> {
  const blank = (v: string | null) => (v?.trim() ? v.trim() : null);
  const body = { companyName: form.companyName, timezone: form.timezone.trim(), currency: form.currency.trim().toUpperCase(), email: blank(form.email), phone: blank(form.phone), website: blank(form.website) };
  return api(config, 'PUT /v1/company', { body }).then((r) => r.company);
}

export const listKeys = (config: ApiConfig) => api(config, 'GET /v1/apiKeys').then((r) => r.apiKeys);

export const createKey = (config: ApiConfig, name: string, role: ApiKeyAnswer['role']) => api(config, 'POST /v1/apiKeys', { body: { name: name.trim(), role } });

export const revokeKey = (config: ApiConfig, keyId: number) => api(config, 'DELETE /v1/apiKeys/:keyId', { params: { keyId } });

/** Pairs with a peer; the key is sent once and never shown again. */
export const pairPeer = (config: ApiConfig, url: string, key: string) => api(config, 'POST /v1/sync/peers', { body: { url: url.trim(), key: key.trim() } }).then((r) => r.peer);

export const unpairPeer = (config: ApiConfig, url: string) => api(config, 'DELETE /v1/sync/peers', { query: { url } });

/** One exchange with every peer, now. */
export const syncNow = (config: ApiConfig) => api(config, 'POST /v1/sync/run');

export const loadBackups = (config: ApiConfig) => api(config, 'GET /v1/system/backups');

/** One backup of the data folder, now (POST /v1/system/backups answers once the file is written). */
export const backUpNow = (config: ApiConfig) => api(config, 'POST /v1/system/backups', { body: {} }).then((r) => r.backup);
