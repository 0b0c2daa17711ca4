import type { DbHandle } from '../db/connection';
import { sequenceIds, type IdGenerator } from '../db/sequences';
import { insertSetting, readSetting } from '../db/queries/settings';
import { createContext, systemClock, type Clock, type EngineContext } from './domain/context';
import { createApiKeys, createCompanies, createKeyUse } from './domain/platform';
import { createCategories, createExternalCodes, createExtras, createPartnerConnect, createPickups, createProductImages, createProducts } from './domain/catalogue';
import { createAvailability, createResources } from './domain/availability';
import { createBarcodes, createBookings, createCustomers } from './domain/bookings';
import { createCheckin, createDeskDay, createDeviceCopy, createManifestSearch, createManifests, createScanner } from './domain/checkin';
import { createRates, createResellers, createVouchers } from './domain/commerce';
import { createReplica } from './sync/replica';
import { createSyncService } from './sync/service';
import { leasedIds } from '../db/postgres/sequences';

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
  const replica = createReplica(db, () => clock.now().getTime());
  const defaultIds = () => (db.dialect === 'postgres' ? leasedIds(db.db, instanceNo) : sequenceIds(db.sqlite, instanceNo));
  // Every write's row changes become sync ops inside that write, before it commits, on either dialect.
  const ctx: EngineContext = createContext(db, clock, ids ?? defaultIds(), config.dataDir, replica.fold);
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
  const checkin = createCheckin(ctx, { manifests, companies });
  const scanner = createScanner(ctx, { manifests, companies });
  const barcodes = createBarcodes(ctx, { bookings });
  const manifestSearch = createManifestSearch(ctx, { manifests, companies });
  const deskDay = createDeskDay(ctx, { manifests, companies });
  const deviceCopy = createDeviceCopy(ctx, { manifests, companies });
  const sync = createSyncService(ctx, replica, instanceNo);
  return {
    ctx,
    clock,
    instanceNo,
    companies,
    products,
    apiKeys,
    keyUse: createKeyUse(ctx),
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
    deskDay,
    deviceCopy,
    replica,
    sync,
    close: async () => {
      await sync.keepFolderMark();
      await db.close();
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;

/** The instance number is chosen once per data folder and kept in settings. */
export function readInstanceNo(db: DbHandle): number {
  // The hub on PostgreSQL reads it before the engine exists (main/boot.ts), as it is asynchronous there.
  if (db.dialect === 'postgres') throw new Error('An engine on PostgreSQL is given its instance number (config.instanceNo)');
  const stored = readSetting(db.sqlite, 'instance_no');
  if (stored !== null) return Number(stored);
  insertSetting(db.sqlite, 'instance_no', '1');
  return 1;
}
