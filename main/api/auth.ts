import type { FastifyRequest } from 'fastify';
import type { Actor } from '../domain/context';
import type { Role } from '../domain/platform/apiKeys';
import { DomainError } from '../domain/errors';

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
  | 'public' // no key needed (the API description, which holds no data)
  | 'sync'; // exchange ops with a peer, read sync status

/** `sync` keys (issue 16) may only exchange ops and read sync status. */
const RIGHTS: Record<Role, ReadonlySet<Right>> = {
  supplier: new Set<Right>(['any', 'catalog:read', 'catalog:write', 'availability:read', 'availability:write', 'bookings', 'customers', 'manifest:read', 'checkin', 'system', 'sync']),
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
 * Slows down key guessing: after 30 wrong keys from one address in a minute, that address's
 * wrong keys are refused with 429 until the minute is over. A right key is never held back
 * (the caller checks the key first and consults the limiter only for a wrong one), so a page
 * or process that sends wrong keys cannot lock the holder of a right key out.
 */
export class FailedKeyLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();
  constructor(
    private readonly maxFailures = 30,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one wrong key; answers the seconds to wait when the address has used up its attempts, else 0. */
  fail(address: string): number {
    const now = this.now();
    let entry = this.failures.get(address);
    if (!entry || now - entry.since >= this.windowMs) {
      if (this.failures.size >= 10_000) this.failures.clear();
      entry = { count: 0, since: now };
      this.failures.set(address, entry);
    }
    entry.count++;
    return entry.count > this.maxFailures ? Math.max(1, Math.ceil((entry.since + this.windowMs - now) / 1000)) : 0;
  }
}
