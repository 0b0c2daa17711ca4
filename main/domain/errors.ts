/**
 * Errors are values with stable codes. The API layer turns them into the requestStatus envelope;
 * the codes are documented in docs/api.md and never change meaning once released.
 */
export const ErrorCodes = {
  VALIDATION_ERROR: 400,
  INVALID_TIME: 400,
  PAYLOAD_TOO_LARGE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A desk that follows a hub tried to change the catalogue (products, prices, rates, sessions): change it on the hub. */
  CATALOGUE_OWNED_BY_HUB: 403,
  NOT_FOUND: 404,
  /** The only code seen in the wild: "no order found". Kept for a missing booking. */
  '24': 404,
  CONFLICT: 409,
  DUPLICATE: 409,
  NO_SEATS: 409,
  CHARTER_TAKEN: 409,
  IN_USE: 409,
  INVALID_STATE: 409,
  BUSINESS_RULE: 422,
  TOO_MANY_ATTEMPTS: 429,
  READ_ONLY: 503,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string, status?: number) {
    super(message);
    this.code = code;
    this.status = status ?? ErrorCodes[code];
  }
}

export const notFound = (what: string, id: string | number) => new DomainError('NOT_FOUND', `${what} ${id} was not found`);
export const invalid = (message: string) => new DomainError('VALIDATION_ERROR', message);
