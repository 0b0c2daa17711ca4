import { DomainError, type ErrorCode } from '../domain/errors';

/**
 * Why sync refused something, and the API's answer to it (mapped here, once): a page or a peer at
 * fault is a conflict (409) with the reason in words; input that is not a page or an address at
 * all is bad input (400). Everything else about a SyncError is a DomainError's, so the API's error
 * envelope answers it as it answers any refusal.
 */
export const SYNC_REFUSALS = {
  /** A page skips ops of an origin (vector.ts). */
  GAP: 'CONFLICT',
  /** An op stamped too far ahead of this machine's clock (hlc.ts). */
  CLOCK_AHEAD: 'CONFLICT',
  /** An op id held here with different content: two data folders share one origin. */
  CLONE: 'CONFLICT',
  /** A peer this instance must not pair or exchange with (a clash of instance numbers, a clone, another hub). */
  PAIRING: 'CONFLICT',
  /** A peer that does not answer, or answers with a refusal or something that is not TourDesk's. */
  PEER_UNREACHABLE: 'CONFLICT',
  /** An address that is not a peer's URL. */
  PEER_ADDRESS: 'VALIDATION_ERROR',
  /** A pushed page this instance cannot take as it is; nothing of it is applied. */
  PAGE_REFUSED: 'VALIDATION_ERROR',
  /** A snapshot page asked for from a place that is not one: no such table, or a key that is not one of it. */
  SNAPSHOT_CURSOR: 'VALIDATION_ERROR',
} as const satisfies Record<string, ErrorCode>;

export type SyncRefusal = keyof typeof SYNC_REFUSALS;

export class SyncError extends DomainError {
  constructor(
    readonly refusal: SyncRefusal,
    message: string,
  ) {
    super(SYNC_REFUSALS[refusal], message);
  }
}

/** Op `origin:seq` arrived with content other than the copy stored here. */
export function cloneError(origin: string, seq: number): SyncError {
  return new SyncError('CLONE', `Op ${origin}:${seq} arrived with content different from the one stored here: two data folders share one origin (a copied or restored folder?). Sync stops; give one of them a fresh data folder.`);
}

/** The refusal a desk gives when asked to author catalogue data its hub owns. */
export function catalogueOwnedByHub(what = 'catalogue'): DomainError {
  return new DomainError('CATALOGUE_OWNED_BY_HUB', `The ${what} is managed on the hub this desk syncs with; change it on the hub, and it arrives here with the next sync`);
}
