import { defineRoute, type RouteHost } from '../route';
import { deviceCopyQuery, type DeviceCopy } from '../../contract/deviceCopy';

/** A scanner device's copy of a window of days, whole or changes only (TourDesk extension). */
export function registerDeviceCopyRoutes(host: RouteHost): void {
  defineRoute(host, {
    method: 'GET',
    path: '/v1/checkin/device-copy',
    summary: "A scanner device's copy of the window's departures, every booking with the facts the scan rules weigh; with since, only what changed (TourDesk extension)",
    tag: 'Manifest',
    right: 'manifest:read',
    query: deviceCopyQuery,
    handler: async ({ query, engine }): Promise<{ deviceCopy: DeviceCopy }> => ({ deviceCopy: await engine.deviceCopy.get(query) }),
  });
}
