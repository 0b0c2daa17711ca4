/** Check-in: manifests, scans, device events, the search for codes that will not scan, and the desk day's views (week, overrides). */
export { createManifests, type ManifestsService } from './manifests';
export { createCheckin, type CheckinService } from './events';
export { createScanner, type ScannerService } from './scan';
export { createManifestSearch, type ManifestSearchService } from './search';
export { createDeskDay } from './deskDay';
export { createDeviceCopy, type DeviceCopyService } from './deviceCopy';
