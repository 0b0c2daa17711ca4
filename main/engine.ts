import type { DbHandle } from '../db/connection';
import { createContext, sequenceIds, systemClock, type Clock, type IdGenerator, type EngineContext } from './domain/context';
import { createApiKeys } from './domain/apiKeys';
import { createCompanies } from './domain/companies';
import { createProducts } from './domain/products';
import { createExternalCodes } from './domain/externalCodes';
import { createAvailability } from './domain/availability';
import { createResources } from './domain/resources';
import { createRates } from './domain/rates';
import { createResellers } from './domain/resellers';
import { createVouchers } from './domain/vouchers';
import { createCategories } from './domain/categories';
import { createExtras } from './domain/extras';
import { createPickups } from './domain/pickups';
import { createPartnerConnect } from './domain/partnerConnect';
import { createProductImages } from './domain/productImages';
import { createCustomers } from './domain/customers';
import { createBookings } from './domain/bookings';
import { createManifests } from './domain/manifests';
import { createCheckin } from './domain/checkin';
import { createScanner } from './domain/scan';
import { createBarcodes } from './domain/barcodes';
import { createManifestSearch } from './domain/manifestSearch';

export interface EngineConfig {
  /** The data folder (media files live under it); null for engines without files, e.g. in tests. */
  dataDir: string | null;
  /** This instance's number (1..999), fixed when the data folder is created. */
  instanceNo?: number;
}

export interface EngineDeps {
  db: DbHandle;
  clock?: Clock;
  ids?: IdGenerator;
  config: EngineConfig;
}

/**
 * The engine: every domain service over one SQLite database, with the clock and the id
 * generator injected. It knows nothing of HTTP or Electron; the API server and the desktop
 * app both drive it, and so will sync.
 */
export function createEngine({ db, clock = systemClock(), ids, config }: EngineDeps) {
  const instanceNo = config.instanceNo ?? readInstanceNo(db);
  const ctx: EngineContext = createContext(db, clock, ids ?? sequenceIds(db.sqlite, instanceNo), config.dataDir);
  const companies = createCompanies(ctx);
  const products = createProducts(ctx, companies);
  const apiKeys = createApiKeys(ctx);
  const externalCodes = createExternalCodes(ctx, products);
  const availability = createAvailability(ctx, { companies, products });
  const resources = createResources(ctx, { companies, availability });
  const rates = createRates(ctx, products);
  const resellers = createResellers(ctx, rates);
  const vouchers = createVouchers(ctx, companies);
  const categories = createCategories(ctx, products);
  const extras = createExtras(ctx, companies);
  const pickups = createPickups(ctx, products);
  const partnerConnect = createPartnerConnect(ctx, products);
  const productImages = createProductImages(ctx, products);
  const customers = createCustomers(ctx);
  const bookings = createBookings(ctx, { companies, products });
  const manifests = createManifests(ctx, { products, companies });
  const checkin = createCheckin(ctx, { manifests });
  const scanner = createScanner(ctx, { manifests });
  const barcodes = createBarcodes(ctx, { bookings });
  const manifestSearch = createManifestSearch(ctx, { manifests, companies });
  return {
    ctx,
    clock,
    instanceNo,
    companies,
    products,
    apiKeys,
    externalCodes,
    availability,
    resources,
    rates,
    resellers,
    vouchers,
    categories,
    extras,
    pickups,
    partnerConnect,
    productImages,
    customers,
    bookings,
    manifests,
    checkin,
    scanner,
    barcodes,
    manifestSearch,
    close: () => db.close(),
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The instance number is chosen once per data folder and kept in settings. */
export function readInstanceNo(db: DbHandle): number {
  const row = db.sqlite.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'instance_no'").get();
  if (row) return Number(row.value);
  db.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('instance_no', '1')").run();
  return 1;
}
