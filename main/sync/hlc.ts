import { SyncError } from './errors';

/**
 * Hybrid logical clock: wall milliseconds + a counter + the origin, so every op has a unique,
 * totally ordered stamp that never runs backwards on one instance even when its wall clock does.
 * Encoded as fixed-width text so SQLite and JavaScript order stamps the same way as compareHlc.
 */
export interface Hlc {
  wall: number;
  counter: number;
  origin: string;
}

/** Ops stamped further ahead of our clock than this are refused (a peer with a wrong clock). */
export const DEFAULT_MAX_FUTURE_MS = 5 * 60_000;

function clockAhead(stamp: Hlc, localWall: number): SyncError {
  return new SyncError('CLOCK_AHEAD', `An op is stamped ${Math.round((stamp.wall - localWall) / 1000)} s ahead of this machine's clock (origin ${stamp.origin}); check the clock of that machine`);
}

const WALL_DIGITS = 15;
const COUNTER_DIGITS = 6;

export function encodeHlc(h: Hlc): string {
  return `${String(h.wall).padStart(WALL_DIGITS, '0')}-${String(h.counter).padStart(COUNTER_DIGITS, '0')}-${h.origin}`;
}

/**
 * The stamp encodeHlc wrote: 15 digits, '-', 6 digits, '-', an origin of letters and digits; anything
 * else is refused. Read character by character: a catch-up decodes every op's stamp, and the regular
 * expression with its captures and Number() calls was about 1 µs an op of it.
 */
export function decodeHlc(text: string): Hlc {
  const originAt = WALL_DIGITS + 1 + COUNTER_DIGITS + 1;
  const shaped = text.length > originAt && text.charCodeAt(WALL_DIGITS) === 45 && text.charCodeAt(originAt - 1) === 45;
  const wall = shaped ? digitsAt(text, 0, WALL_DIGITS) : -1;
  const counter = shaped ? digitsAt(text, WALL_DIGITS + 1, originAt - 1) : -1;
  if (wall < 0 || counter < 0 || !alphanumericFrom(text, originAt)) throw new Error(`Not a clock stamp: ${text.slice(0, 40)}`);
  return { wall, counter, origin: text.slice(originAt) };
}

/** The number text[from, to) spells in decimal digits (all inside text), or -1 if one is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** Whether text from `from` on is ASCII letters and digits only. */
function alphanumericFrom(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

export function compareHlc(a: Hlc, b: Hlc): number {
  if (a.wall !== b.wall) return a.wall < b.wall ? -1 : 1;
  if (a.counter !== b.counter) return a.counter < b.counter ? -1 : 1;
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0;
}

/** Encoded stamps compare as text exactly as compareHlc compares them. */
export function maxStamp(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}

export interface HlcClock {
  /** A stamp for a local event. Never throws: a wrong local clock must not block a sale. */
  tick(): Hlc;
  /** Takes a remote stamp into account; refuses one too far ahead of our wall clock. */
  receive(remote: Hlc): void;
  /** The last stamp issued or received (persisted so a restart never goes back). */
  last(): Hlc;
}

export function createHlcClock(options: { origin: string; now: () => number; last?: Hlc | null; maxFutureMs?: number }): HlcClock {
  const maxFuture = options.maxFutureMs ?? DEFAULT_MAX_FUTURE_MS;
  let last: Hlc = options.last ?? { wall: 0, counter: 0, origin: options.origin };
  return {
    tick() {
      const wall = Math.max(last.wall, options.now());
      last = { wall, counter: wall === last.wall ? last.counter + 1 : 0, origin: options.origin };
      return last;
    },
    receive(remote) {
      const now = options.now();
      if (remote.wall > now + maxFuture) throw clockAhead(remote, now);
      const wall = Math.max(last.wall, remote.wall, now);
      const counter = wall === last.wall && wall === remote.wall ? Math.max(last.counter, remote.counter) + 1 : wall === last.wall ? last.counter + 1 : wall === remote.wall ? remote.counter + 1 : 0;
      last = { wall, counter, origin: options.origin };
    },
    last: () => last,
  };
}

/**
 * The peer's clock minus ours, estimated from one request: the peer's reported time against the
 * middle of our send and receive times (NTP's simplest estimate). Positive: the peer is ahead.
 */
export function measureSkew(peerNowMs: number, sentAtMs: number, receivedAtMs: number): number {
  return Math.round(peerNowMs - (sentAtMs + receivedAtMs) / 2);
}
