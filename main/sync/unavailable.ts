import { DomainError } from '../domain/errors';
import type { Replica } from './replica';

/**
 * The replica of a hub on PostgreSQL until sync runs there (issue 21's sync step: op capture,
 * fold, apply and the /v1/sync exchange on PostgreSQL). The hub owns its catalogue (it follows no
 * other hub), so catalogue writes go ahead; anything that would exchange ops refuses with a clear
 * answer instead of pretending to sync.
 */
export function replicaUnavailable(): Replica {
  const refuse = () => {
    throw new DomainError('INVALID_STATE', 'Sync is not available yet on a hub running on PostgreSQL: desks cannot pair or exchange with it (TourDesk issue 21); run the hub on SQLite to sync desks', 501);
  };
  const known: Partial<Record<keyof Replica, unknown>> = {
    origin: 'postgres-hub',
    catalogueOwner: () => 'postgres-hub',
    followsHub: () => false,
    install: () => undefined,
    heldCount: () => 0,
    vector: () => ({}),
    isFresh: () => true,
    releaseHeld: async () => 0,
  };
  return new Proxy(known, {
    get: (target, name) => (name in target ? target[name as keyof Replica] : name === 'then' ? undefined : refuse),
  }) as Replica;
}
