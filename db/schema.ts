/**
 * Kysely's view of the SQLite schema (db/migrations). Column names are snake_case as stored;
 * domain code maps rows to the API's camelCase shapes. Booleans are INTEGER 0/1, times epoch ms,
 * money integer minor units.
 */
import type { SettingsTable, SequencesTable, OpLogTable, CompaniesTable, ResellersTable, ApiKeysTable } from './schema/platform';
import type { PickupListsTable, PickupLocationsTable, ProductsTable, PriceOptionsTable, ExtrasTable, ProductExtrasTable, ProductImagesTable, CategoriesTable, CategoryProductsTable, RatesTable, RateProductsTable, PartnerConnectTable } from './schema/catalogue';
import type { CustomersTable, SessionsTable, SessionPriceOptionsTable, ResourcesTable, SessionResourcesTable, BookingsTable, BookingItemsTable, BookingItemQuantitiesTable, BookingItemExtrasTable, ParticipantsTable, OrderBarcodesTable, ExternalCodesTable, PaymentsTable, VouchersTable, VoucherRedemptionsTable, CheckinEventsTable, SessionSeatsHeldTable, RevokedCodesTable } from './schema/bookings';
import type { SyncInstanceTable, SyncCaptureTable, SyncOpsTable, SyncVectorTable, SyncRowsTable, SyncShapesTable, SyncHeldTable, SyncPeersTable, SyncInstancesTable, SyncRefusalsTable, SyncAcknowledgementsTable, SyncCompactedTable, SyncIncarnationsTable, SyncRowNamesView, SyncEntitiesTable, SyncOriginsTable } from './schema/sync';

export type * from './schema/platform';
export type * from './schema/catalogue';
export type * from './schema/bookings';
export type * from './schema/sync';

/** Every table, as Kysely sees it (the tables' types live by area under db/schema/). */
export interface Database {
  settings: SettingsTable;
  sequences: SequencesTable;
  op_log: OpLogTable;
  companies: CompaniesTable;
  resellers: ResellersTable;
  api_keys: ApiKeysTable;
  pickup_lists: PickupListsTable;
  pickup_locations: PickupLocationsTable;
  products: ProductsTable;
  price_options: PriceOptionsTable;
  extras: ExtrasTable;
  product_extras: ProductExtrasTable;
  product_images: ProductImagesTable;
  categories: CategoriesTable;
  category_products: CategoryProductsTable;
  rates: RatesTable;
  rate_products: RateProductsTable;
  partner_connect: PartnerConnectTable;
  customers: CustomersTable;
  sessions: SessionsTable;
  session_price_options: SessionPriceOptionsTable;
  resources: ResourcesTable;
  session_resources: SessionResourcesTable;
  bookings: BookingsTable;
  booking_items: BookingItemsTable;
  session_seats_held: SessionSeatsHeldTable;
  booking_item_quantities: BookingItemQuantitiesTable;
  booking_item_extras: BookingItemExtrasTable;
  participants: ParticipantsTable;
  order_barcodes: OrderBarcodesTable;
  external_codes: ExternalCodesTable;
  payments: PaymentsTable;
  vouchers: VouchersTable;
  voucher_redemptions: VoucherRedemptionsTable;
  checkin_events: CheckinEventsTable;
  revoked_codes: RevokedCodesTable;
  sync_instance: SyncInstanceTable;
  sync_capture: SyncCaptureTable;
  sync_ops: SyncOpsTable;
  sync_vector: SyncVectorTable;
  sync_rows: SyncRowsTable;
  /** SQLite only (20261205_11): sync_rows by name, and the numbers it is keyed by. */
  sync_row_names: SyncRowNamesView;
  sync_entities: SyncEntitiesTable;
  sync_origins: SyncOriginsTable;
  sync_shapes: SyncShapesTable;
  sync_held: SyncHeldTable;
  sync_peers: SyncPeersTable;
  sync_instances: SyncInstancesTable;
  sync_compacted: SyncCompactedTable;
  sync_incarnations: SyncIncarnationsTable;
  sync_refusals: SyncRefusalsTable;
  sync_acknowledgements: SyncAcknowledgementsTable;
}
