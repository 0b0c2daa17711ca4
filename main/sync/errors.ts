import { DomainError } from '../domain/errors';

export class CloneError extends Error {
  constructor(origin: string, seq: number) {
    super(`Op ${origin}:${seq} arrived with content different from the one stored here: two data folders share one origin (a copied or restored folder?). Sync stops; give one of them a fresh data folder.`);
  }
}

/** The refusal a desk gives when asked to author catalogue data its hub owns. */
export function catalogueOwnedByHub(what = 'catalogue'): DomainError {
  return new DomainError('CATALOGUE_OWNED_BY_HUB', `The ${what} is managed on the hub this desk syncs with; change it on the hub, and it arrives here with the next sync`);
}
