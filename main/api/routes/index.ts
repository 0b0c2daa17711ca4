import type { RouteHost } from '../route';
import { registerSystemRoutes } from './system';
import { registerCompanyRoutes } from './companies';
import { registerProductRoutes } from './products';
import { registerCategoryRoutes } from './categories';
import { registerExtraRoutes } from './extras';
import { registerPickupRoutes } from './pickups';
import { registerPartnerConnectRoutes } from './partnerConnect';
import { registerProductImageRoutes } from './productImages';

/** Every resource's routes, one module each. */
export function registerAllRoutes(host: RouteHost): void {
  registerSystemRoutes(host);
  registerCompanyRoutes(host);
  registerProductRoutes(host);
  registerCategoryRoutes(host);
  registerExtraRoutes(host);
  registerPickupRoutes(host);
  registerPartnerConnectRoutes(host);
  registerProductImageRoutes(host);
}
