import type { RouteHost } from '../route';
import { registerSystemRoutes } from './system';
import { registerCompanyRoutes } from './companies';
import { registerProductRoutes } from './products';
import { registerManifestRoutes } from './manifest';

/** Every resource's routes, one module each. */
export function registerAllRoutes(host: RouteHost): void {
  registerSystemRoutes(host);
  registerCompanyRoutes(host);
  registerProductRoutes(host);
  registerManifestRoutes(host);
}
