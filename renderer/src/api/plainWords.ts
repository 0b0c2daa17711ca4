import { ApiError } from './client';

/**
 * An error as a desk clerk can act on it: what happened and what to do, not an HTTP status.
 * The engine's own messages are already written for people (they name the booking, the rule),
 * so they are kept where they explain; transport and key problems get words of their own.
 */
export function plainWords(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.offline) return 'TourDesk cannot be reached right now. Check the network or that the TourDesk computer is on, then try again.';
    if (error.status === 401) return 'This device is no longer signed in (its key was revoked or is wrong). Sign in again with a key from the office.';
    if (error.status === 403) return `This device’s key may not do that (${error.message}). Ask the office for a supplier key.`;
    if (error.status === 429) return 'Too many tries with a wrong key. Wait a minute, then try again.';
    if (error.status >= 500) return 'Something went wrong inside TourDesk; nothing was changed. Try again, and tell the office if it keeps happening.';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
