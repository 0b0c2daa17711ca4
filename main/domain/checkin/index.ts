/** Check-in: manifests, scans, device events, and the search for codes that will not scan. */
export { createManifests, type ManifestsService } from './manifests';
export { createCheckin, type CheckinService } from './events';
export { createScanner, type ScannerService } from './scan';
export { createManifestSearch, type ManifestSearchService } from './search';
