/** Platform: the supplier company and the API keys. */
export { createCompanies, type CompaniesService } from './companies';
export { createApiKeys, type ApiKeysService } from './apiKeys';
export { createKeyUse, type KeyUseService } from './keyUse';
