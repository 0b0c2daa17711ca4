/**
 * Every /v1 call the renderer makes, and the answer each gives (the envelope's requestStatus aside),
 * named once here from the contract's types: a call site names only its route. Types only (`import
 * type`): the renderer never runs the contract's code. `:name` in a path is filled from the call's params.
 */
import type { ApiKeyAnswer, ApiKeyCreated } from '../../../main/contract/apiKeys';
import type { SessionAnswer } from '../../../main/contract/availability';
import type { Booking, BookingList, BookingQuote } from '../../../main/contract/bookings';
import type { DeviceCopy } from '../../../main/contract/deviceCopy';
import type { OverrideCheckin, WeekAnswer } from '../../../main/contract/desk';
import type { DayBoardSession, EventsAnswer, Manifest, ManifestVersion, ScanAnswer } from '../../../main/contract/manifest';
import type { PairingAnswer } from '../../../main/contract/pairing';
import type { ProductPickupsAnswer } from '../../../main/contract/pickups';
import type { BackupsAnswer, CompanyAnswer, CreatedBackup, InstanceAnswer } from '../../../main/contract/settings';
import type { PeerAdded, SyncConflict, SyncRun, SyncStatus } from '../../../main/contract/sync';

export interface Routes {
  'GET /v1/manifest': { manifest: Manifest };
  'GET /v1/manifest/version': { manifestVersion: ManifestVersion };
  'GET /v1/manifest/day': { sessions: DayBoardSession[] };
  'GET /v1/checkin/device-copy': { deviceCopy: DeviceCopy };
  'GET /v1/manifest/week': WeekAnswer;
  'GET /v1/checkin/overrides': { overrides: OverrideCheckin[] };
  'POST /v1/manifest/scan': { scan: ScanAnswer };
  'POST /v1/manifest/events': EventsAnswer;
  'GET /v1/availability': { sessions: SessionAnswer[] };
  'GET /v1/products/:productCode/pickups': ProductPickupsAnswer;
  'GET /v1/bookings': BookingList;
  'POST /v1/bookings': { booking: Booking };
  'POST /v1/bookings/quote': { booking: BookingQuote };
  'GET /v1/bookings/:orderNumber': { booking: Booking };
  'PUT /v1/bookings/:orderNumber': { booking: Booking };
  'DELETE /v1/bookings/:orderNumber': { booking: Booking };
  'POST /v1/bookings/:orderNumber/payments': { booking: Booking };
  'GET /v1/company': { company: CompanyAnswer };
  'PUT /v1/company': { company: CompanyAnswer };
  'GET /v1/apiKeys': { apiKeys: ApiKeyAnswer[] };
  'POST /v1/apiKeys': ApiKeyCreated;
  'DELETE /v1/apiKeys/:keyId': { apiKey: ApiKeyAnswer };
  'POST /v1/pairing/checkin': { pairing: PairingAnswer };
  'GET /v1/system/instance': InstanceAnswer;
  'GET /v1/system/backups': BackupsAnswer;
  'POST /v1/system/backups': { backup: CreatedBackup };
  'GET /v1/sync/status': SyncStatus;
  'POST /v1/sync/run': SyncRun;
  'POST /v1/sync/peers': { peer: PeerAdded };
  'DELETE /v1/sync/peers': { removed: unknown };
  'POST /v1/sync/conflicts/:sessionId/acknowledge': { conflict: SyncConflict };
}

export type Route = keyof Routes;

/** The `:name` placeholders of a route's path. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;

export interface CallOptions {
  query?: Record<string, string | number | undefined> | URLSearchParams;
  body?: unknown;
  /** A scanner never waits long for the network: past the limit the engine counts as unreachable. */
  timeoutMs?: number;
}

/** A route with placeholders must be given their values; one without may be called with no options at all. */
export type CallArgs<R extends Route> = [ParamNames<R>] extends [never] ? [options?: CallOptions] : [options: CallOptions & { params: Record<ParamNames<R>, string | number> }];

/** The method and the path with its placeholders filled (each value URL-encoded) and its query appended. */
export function requestOf(route: Route, options: CallOptions & { params?: Record<string, string | number> } = {}): { method: string; path: string } {
  const [method, template] = route.split(' ');
  const path = template.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(options.params?.[name])));
  const query = options.query instanceof URLSearchParams ? options.query : new URLSearchParams(Object.entries(options.query ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  const search = query.toString();
  return { method, path: search ? `${path}?${search}` : path };
}
