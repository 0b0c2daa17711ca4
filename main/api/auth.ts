import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/context';
import type { Role } from '../domain/platform/apiKeys';
import { DomainError } from '../domain/errors';
import { FailedAttempts } from '../domain/failedAttempts';

/** What a route needs. Roles map to rights here, in one table. */
export type Right =
  | 'any' // any valid key
  | 'catalog:read'
  | 'catalog:write'
  | 'availability:read'
  | 'availability:write'
  | 'bookings' // agents reach only their own bookings; the domain enforces that
  | 'customers'
  | 'manifest:read'
  | 'checkin'
  | 'system' // backups and other settings of the installation: supplier keys only
  | 'reports' // the desk's takings and who overrode a check-in rule: supplier keys only
  | 'public' // no key needed (the API description, which holds no data)
  | 'sync'; // exchange ops with a peer, read sync status

/** `sync` keys (issue 16) may only exchange ops and read sync status. */
const RIGHTS: Record<Role, ReadonlySet<Right>> = {
  supplier: new Set<Right>(['any', 'catalog:read', 'catalog:write', 'availability:read', 'availability:write', 'bookings', 'customers', 'manifest:read', 'checkin', 'system', 'reports', 'sync']),
  agent: new Set<Right>(['any', 'catalog:read', 'availability:read', 'bookings']),
  checkin: new Set<Right>(['any', 'availability:read', 'manifest:read', 'checkin']),
  sync: new Set<Right>(['any', 'sync']),
};

export function can(actor: Actor, right: Right): boolean {
  if (right === 'public') return true;
  return actor.role === 'system' || (RIGHTS[actor.role]?.has(right) ?? false);
}

export function requireRight(actor: Actor, right: Right): void {
  if (!can(actor, right)) throw new DomainError('FORBIDDEN', `This API key (${actor.role}) may not do this`);
}

/** The key arrives as query parameter apiKey or header apiKey (any case). */
export function keyFrom(request: FastifyRequest): string | undefined {
  const header = request.headers['apikey'];
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.apiKey ?? query?.apikey;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  if (Array.isArray(fromQuery) && typeof fromQuery[0] === 'string') return fromQuery[0];
  return undefined;
}

/**
 * Slows down key guessing: after 30 wrong keys from one address in a sliding minute, that
 * address's wrong keys are refused with 429 until the first of those 30 is a minute old. A right
 * key is never held back (the caller checks the key first and consults the limiter only for a
 * wrong one), so a page or process that sends wrong keys cannot lock the holder of a right key out.
 */
export class FailedKeyLimiter {
  private readonly attempts: FailedAttempts;
  constructor(maxFailures = 30, windowMs = 60_000, now: () => number = Date.now) {
    this.attempts = new FailedAttempts(maxFailures, windowMs, now);
  }

  /** One wrong key: counted while the address may still try (answers 0), else the seconds it must wait. */
  fail(address: string): number {
    const wait = this.attempts.waitSeconds(address);
    if (wait === 0) this.attempts.fail(address);
    return wait;
  }
}
