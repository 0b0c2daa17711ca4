/** Availability: sessions (seats derived from bookings, never stored), their search and resources. */
export { createAvailability, type AvailabilityService } from './sessions';
export { createResources, type ResourcesService } from './resources';
