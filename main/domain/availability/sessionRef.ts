import type { Kysely } from 'kysely';
import type { Database, SessionsTable } from '../../../db/schema';
import { findSessionStartingAt } from '../../../db/queries/sessions';
import { DomainError } from '../errors';
import { fromIso, fromLocal } from '../time';

/** How clients name a session: productCode plus startTime (ISO instant) or startTimeLocal. */
export interface SessionRef {
  productCode: string;
  startTime?: string;
  startTimeLocal?: string;
}

/** The instant a ref names, in the product's timezone for local times. */
export function refInstant(ref: SessionRef, timezone: string): number {
  if (ref.startTime) return fromIso(ref.startTime, 'startTime');
  if (ref.startTimeLocal) return fromLocal(ref.startTimeLocal, timezone, 'startTimeLocal');
  throw new DomainError('VALIDATION_ERROR', 'Name the session with startTime or startTimeLocal');
}

/** The stored session a ref names, or a 404 saying which. */
export async function findSession(db: Kysely<Database>, ref: SessionRef, timezone: string): Promise<SessionsTable> {
  const startAt = refInstant(ref, timezone);
  const row = await findSessionStartingAt(db, ref.productCode, startAt);
  if (!row) throw new DomainError('NOT_FOUND', `Product ${ref.productCode} has no session starting at ${ref.startTimeLocal ?? ref.startTime}`);
  return row;
}
