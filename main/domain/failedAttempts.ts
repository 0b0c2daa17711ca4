import { DomainError } from './errors';

/** A bound on memory when very many keys fail at once (a scan of addresses). */
const MAX_KEYS = 10_000;

/**
 * Failed attempts per key (an address, an API key) in a sliding window: once a key has failed
 * `limit` times within `windowMs`, it waits until the oldest of those failures leaves the window.
 * Only what the caller reports as a failure counts; the caller asks before the attempt, so a
 * refused attempt counts nothing and the wait it was told is the whole wait. Held in memory: a
 * restart forgets every failure.
 */
export class FailedAttempts {
  /** Per key, the times of its last `limit` failures, oldest first. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole seconds `key` must wait before its next attempt (at least 1), or 0 when it may try now. */
  waitSeconds(key: string): number {
    const times = this.failures.get(key);
    if (!times || times.length < this.limit) return 0;
    // A clock set back never makes the wait longer than the window itself.
    const waitMs = Math.min(times[0] + this.windowMs - this.now(), this.windowMs);
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  /** Counts one failure of `key`, now. */
  fail(key: string): void {
    const now = this.now();
    let times = this.failures.get(key);
    if (!times) {
      if (this.failures.size >= MAX_KEYS) this.forgetPast(now);
      times = [];
      this.failures.set(key, times);
    }
    times.push(now);
    if (times.length > this.limit) times.shift();
  }

  /** Drops keys whose failures have all left the window; everyone starts afresh if that is not enough. */
  private forgetPast(now: number): void {
    for (const [key, times] of this.failures) if (times[times.length - 1] <= now - this.windowMs) this.failures.delete(key);
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
  }
}

/** 429 TOO_MANY_ATTEMPTS, with the seconds to wait (the API sends them as Retry-After). */
export class TooManyAttempts extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_ATTEMPTS', message);
  }
}
