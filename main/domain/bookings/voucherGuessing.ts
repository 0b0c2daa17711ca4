import type { Actor, Clock } from '../context';
import { FailedAttempts, TooManyAttempts } from '../failedAttempts';
import { VoucherNotUsable } from './voucherRedemption';

/**
 * Wrong voucher codes one API key may send in a sliding minute. A customer mistyping a code
 * stays well under it; a key guessing codes is held to a handful a minute.
 */
export const VOUCHER_FAILURES_PER_WINDOW = 5;
export const VOUCHER_FAILURE_WINDOW_MS = 60_000;

const carriesCodes = (codes: readonly string[] | undefined) => codes?.some((code) => code.trim() !== '') ?? false;

/**
 * Slows down voucher guessing. Every code that cannot be used (VoucherNotUsable) counts against the
 * key that sent it; once the key has VOUCHER_FAILURES_PER_WINDOW of them in the window, each of its
 * requests carrying codes (quote, create, update) is refused with 429 before any code is looked at,
 * so a refusal tells nothing about the codes it carries, right ones included. A right code counts
 * nothing; other keys are not affected. In-process callers without a key (the CLI, demo data) are
 * not limited. Held in memory per process.
 */
export function createVoucherGuessing(clock: Clock) {
  const failures = new FailedAttempts(VOUCHER_FAILURES_PER_WINDOW, VOUCHER_FAILURE_WINDOW_MS, () => clock.now().getTime());
  return {
    /** Runs `work` (which applies or checks `codes` for `actor`), refused or counted as above. */
    async guard<T>(actor: Actor, codes: readonly string[] | undefined, work: () => Promise<T>): Promise<T> {
      if (actor.keyId === null || !carriesCodes(codes)) return work();
      const key = String(actor.keyId);
      const wait = failures.waitSeconds(key);
      if (wait > 0) {
        throw new TooManyAttempts(`Too many voucher codes that could not be used were sent with this API key; wait ${wait} s before sending voucher codes again`, wait);
      }
      try {
        return await work();
      } catch (error) {
        if (error instanceof VoucherNotUsable) failures.fail(key);
        throw error;
      }
    },
  };
}
