import type { RouteHost } from '../route';
import { registerSystemRoutes } from './system';
import { registerCompanyRoutes } from './companies';
import { registerProductRoutes } from './products';
import { registerExternalCodeRoutes } from './externalCodes';
import { registerAvailabilityRoutes } from './availability';
import { registerResourceRoutes } from './resources';
import { registerRateRoutes } from './rates';
import { registerResellerRoutes } from './resellers';
import { registerVoucherRoutes } from './vouchers';
import { registerCategoryRoutes } from './categories';
import { registerExtraRoutes } from './extras';
import { registerPickupRoutes } from './pickups';
import { registerPartnerConnectRoutes } from './partnerConnect';
import { registerProductImageRoutes } from './productImages';
import { registerCustomerRoutes } from './customers';
import { registerBookingRoutes } from './bookings';
import { registerManifestRoutes } from './manifest';
import { registerBarcodeRoutes } from './barcodes';
import { registerPairingRoutes } from './pairing';
import { registerSyncRoutes } from './sync';
import { registerApiKeyRoutes } from './apiKeys';
import { registerSettingsRoutes } from './settings';

/** Every resource's routes, one module each. */
export function registerAllRoutes(host: RouteHost): void {
  registerSystemRoutes(host);
  registerCompanyRoutes(host);
  registerProductRoutes(host);
  registerExternalCodeRoutes(host);
  registerAvailabilityRoutes(host);
  registerResourceRoutes(host);
  registerRateRoutes(host);
  registerResellerRoutes(host);
  registerVoucherRoutes(host);
  registerCategoryRoutes(host);
  registerExtraRoutes(host);
  registerPickupRoutes(host);
  registerPartnerConnectRoutes(host);
  registerProductImageRoutes(host);
  registerCustomerRoutes(host);
  registerBookingRoutes(host);
  registerManifestRoutes(host);
  registerBarcodeRoutes(host);
  registerPairingRoutes(host);
  registerSyncRoutes(host);
  registerApiKeyRoutes(host);
  registerSettingsRoutes(host);
}
