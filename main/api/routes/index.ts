import type { RouteHost } from '../route';
import { registerSystemRoutes } from './system';
import { registerCompanyRoutes } from './companies';
import { registerProductRoutes } from './products';
import { registerRateRoutes } from './rates';
import { registerResellerRoutes } from './resellers';
import { registerVoucherRoutes } from './vouchers';

/** Every resource's routes, one module each. */
export function registerAllRoutes(host: RouteHost): void {
  registerSystemRoutes(host);
  registerCompanyRoutes(host);
  registerProductRoutes(host);
  registerRateRoutes(host);
  registerResellerRoutes(host);
  registerVoucherRoutes(host);
}
