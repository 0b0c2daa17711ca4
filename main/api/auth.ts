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
  | 'sync'; // exchange ops with a peer, read sync status

/** `sync` keys (issue 16) may only exchange ops; the domain's Role type gains 'sync' in phase 2, the table already allows it. */
type KeyRole = Role | 'sync';

const RIGHTS: Record<KeyRole, ReadonlySet<Right>> = {
  supplier: new Set<Right>(['any', 'catalog:read', 'catalog:write', 'availability:read', 'availability:write', 'bookings', 'customers', 'manifest:read', 'checkin', 'sync']),
  agent: new Set<Right>(['any', 'catalog:read', 'availability:read', 'bookings']),
  checkin: new Set<Right>(['any', 'availability:read', 'manifest:read', 'checkin']),
  sync: new Set<Right>(['any', 'sync']),
};

export function can(actor: Actor, right: Right): boolean {
  return actor.role === 'system' || (RIGHTS[actor.role as KeyRole]?.has(right) ?? false);
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

/** Slows down key guessing: too many failed keys from one address in a minute get 429. */
export class FailedKeyLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();
  constructor(
    private readonly maxFailures = 30,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  check(address: string): void {
    const entry = this.failures.get(address);
    if (entry && this.now() - entry.since < this.windowMs && entry.count >= this.maxFailures) {
      throw new DomainError('TOO_MANY_ATTEMPTS', 'Too many requests with a wrong API key; wait a minute and try again');
    }
  }

  fail(address: string): void {
    const now = this.now();
    const entry = this.failures.get(address);
    if (!entry || now - entry.since >= this.windowMs) this.failures.set(address, { count: 1, since: now });
    else entry.count++;
    if (this.failures.size > 10_000) this.failures.clear();
  }
}
