import { withWarning } from '../envelope';
import { defineRoute, RawResponse, type RouteHost } from '../route';
import { manifestCsv, manifestHtml } from '../../domain/checkin/export';
import {
  checkinSessionPutQuery,
  dayQuery,
  eventsBodySchema,
  manifestSearchQuery,
  orderSessionQuery,
  scanBodySchema,
  sessionRefQuery,
  specSessionQuery,
  type DayBoardSession,
  type EventsAnswer,
  type Manifest,
  type ManifestVersion,
  type ScanAnswer,
  type SearchHit,
} from '../../contract/manifest';

const TAG = 'Manifest';

/** The spec's "is it checked in" answer. */
type CheckinAnswer = { checkin: { isCheckedIn: boolean } };

/** The spec's check-in operations, then TourDesk's manifest, scan, events, day view and exports. */
export function registerManifestRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/manifest/checkinSession',
    summary: 'Check in every participant of the session (checkin=false removes the check-in)',
    tag: TAG,
    right: 'checkin',
    query: checkinSessionPutQuery,
    handler: async ({ query, actor, engine }) => {
      const { checkin, ...ref } = query;
      if (checkin === false) await engine.checkin.undoSession(actor, ref);
      else await engine.checkin.checkInSession(actor, ref);
      return {};
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/checkinSession',
    summary: 'Whether every participant of the session is checked in',
    tag: TAG,
    right: 'manifest:read',
    query: specSessionQuery,
    handler: async ({ query, engine }): Promise<CheckinAnswer> => ({ checkin: { isCheckedIn: await engine.checkin.isSessionCheckedIn(query) } }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/manifest/checkinSession',
    summary: 'Undo the check-ins of the session',
    tag: TAG,
    right: 'checkin',
    query: specSessionQuery,
    handler: async ({ query, actor, engine }) => {
      await engine.checkin.undoSession(actor, query);
      return {};
    },
  });
  defineRoute(host, {
    method: 'PUT',
    path: '/v1/manifest/checkinOrderSession',
    summary: "Check in the order's participants for the session",
    tag: TAG,
    right: 'checkin',
    query: orderSessionQuery,
    handler: async ({ query: { orderNumber, ...ref }, actor, engine }) => {
      await engine.checkin.checkInOrder(actor, orderNumber, ref);
      return {};
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/checkinOrderSession',
    summary: "Whether the order's participants for the session are all checked in",
    tag: TAG,
    right: 'manifest:read',
    query: orderSessionQuery,
    handler: async ({ query: { orderNumber, ...ref }, engine }): Promise<CheckinAnswer> => ({ checkin: { isCheckedIn: await engine.checkin.isOrderCheckedIn(orderNumber, ref) } }),
  });
  defineRoute(host, {
    method: 'DELETE',
    path: '/v1/manifest/checkinOrderSession',
    summary: "Undo the check-ins of the order's participants for the session",
    tag: TAG,
    right: 'checkin',
    query: orderSessionQuery,
    handler: async ({ query: { orderNumber, ...ref }, actor, engine }) => {
      await engine.checkin.undoOrder(actor, orderNumber, ref);
      return {};
    },
  });

  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest',
    summary: "A session's manifest: bookings, participants and their check-in state, totals, resources (TourDesk extension)",
    tag: TAG,
    right: 'manifest:read',
    query: sessionRefQuery,
    handler: async ({ query, engine }): Promise<{ manifest: Manifest }> => ({ manifest: await engine.manifests.get(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/version',
    summary: "A fingerprint of the session's manifest that changes whenever anything in it does: poll this, fetch the manifest when it moved (TourDesk extension)",
    tag: TAG,
    right: 'manifest:read',
    query: sessionRefQuery,
    handler: async ({ query, engine }): Promise<{ manifestVersion: ManifestVersion }> => ({ manifestVersion: await engine.manifests.version(query) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest.csv',
    summary: 'The manifest as CSV, one row per participant (TourDesk extension)',
    tag: TAG,
    right: 'manifest:read',
    query: sessionRefQuery,
    handler: async ({ query, engine }) => {
      const manifest: Manifest = await engine.manifests.get(query);
      const name = `manifest-${manifest.session.productCode}-${manifest.session.startTimeLocal.slice(0, 16).replace(/[ :]/g, '-')}.csv`;
      return new RawResponse('text/csv; charset=utf-8', manifestCsv(manifest, await engine.companies.supplier()), { 'content-disposition': `attachment; filename="${name}"` });
    },
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest.html',
    summary: 'The manifest as a printable page (TourDesk extension)',
    tag: TAG,
    right: 'manifest:read',
    query: sessionRefQuery,
    handler: async ({ query, engine }) => new RawResponse('text/html; charset=utf-8', manifestHtml(await engine.manifests.get(query), await engine.companies.supplier())),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/day',
    summary: "The day's sessions with booked, checked-in and no-show counts (TourDesk extension)",
    tag: TAG,
    right: 'manifest:read',
    query: dayQuery,
    handler: async ({ query: { date, ...paging }, engine }): Promise<{ sessions: DayBoardSession[] }> => ({ sessions: await engine.manifests.day(date, paging) }),
  });
  defineRoute(host, {
    method: 'GET',
    path: '/v1/manifest/search',
    summary: "Find bookings by participant or customer name, order number or phone, with a scan's context (TourDesk extension)",
    tag: TAG,
    right: 'manifest:read',
    query: manifestSearchQuery,
    handler: async ({ query, engine }): Promise<{ matches: SearchHit[] }> => ({ matches: await engine.manifestSearch.search(query) }),
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/manifest/scan',
    summary: 'Scan a participant or order code and check it in (TourDesk extension)',
    tag: TAG,
    right: 'checkin',
    body: scanBodySchema,
    handler: async ({ body, actor, engine }): Promise<{ scan: ScanAnswer }> => {
      const scan = await engine.scanner.scan(actor, body);
      return withWarning({ scan }, (scan.result === 'NOT_PAID' || scan.result === 'INCOMPLETE') && scan.checkedIn ? scan.message : undefined);
    },
  });
  defineRoute(host, {
    method: 'POST',
    path: '/v1/manifest/events',
    summary: 'Upload check-in events made on a device (idempotent by eventId) (TourDesk extension)',
    tag: TAG,
    right: 'checkin',
    body: eventsBodySchema,
    handler: async ({ body, actor, engine }): Promise<EventsAnswer> => engine.checkin.recordWithVersions(actor, body.events),
  });
}
