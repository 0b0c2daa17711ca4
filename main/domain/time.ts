import { isoInstantMs } from '../contract/common';
import { DateTime } from 'luxon';
import { DomainError } from './errors';

/** Times are UTC instants (epoch ms) inside; `*Local` strings use the supplier's IANA timezone. */
export const LOCAL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export function isValidTimezone(zone: string): boolean {
  return DateTime.local().setZone(zone).isValid;
}

const ISO_CACHE_SIZE = 20_000;
const isoCache = new Map<number, string>();

/** An instant as ISO-8601 UTC, without ".000" on whole seconds. Memoised: lists format the same departures again and again. */
export function toIso(ms: number): string {
  const cached = isoCache.get(ms);
  if (cached !== undefined) return cached;
  const full = new Date(ms).toISOString();
  const text = full.endsWith('.000Z') ? `${full.slice(0, -5)}Z` : full;
  if (isoCache.size >= ISO_CACHE_SIZE) isoCache.clear();
  isoCache.set(ms, text);
  return text;
}

/** Two digits of 0-99 (a wall-clock field). */
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

const HOUR_MS = 3_600_000;
const OFFSET_HOURS_KEPT = 100_000;
/**
 * Per zone, the UTC offset (minutes, as luxon gives it) of each hour of UTC time that has one offset
 * from its start to its end; null for an hour the clocks change in. Zone rules change an offset at
 * most once in an hour, so equal offsets at both ends mean one offset throughout.
 */
const hourOffsets = new Map<string, Map<number, number | null>>();

/** The offset of `zone` at `ms` when its hour has one offset; undefined for a zone luxon refuses or an hour with a change. */
function offsetAt(ms: number, zone: string): number | undefined {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = hourOffsets.get(zone)?.get(hour);
  if (offset === undefined) {
    const start = DateTime.fromMillis(hour * HOUR_MS, { zone });
    // A zone luxon refuses is never kept (a request's bad zone must not grow this).
    if (!start.isValid) return undefined;
    offset = start.offset === DateTime.fromMillis(hour * HOUR_MS + HOUR_MS - 1, { zone }).offset ? start.offset : null;
    let hours = hourOffsets.get(zone);
    if (hours === undefined) hourOffsets.set(zone, (hours = new Map()));
    if (hours.size >= OFFSET_HOURS_KEPT) hours.clear();
    hours.set(hour, offset);
  }
  return offset ?? undefined;
}

/**
 * Same output as toFormat(LOCAL_FORMAT). luxon's zone lookup is the slow part, and lists and
 * scans format many instants: the zone's offset is kept per hour (offsetAt) and the wall-clock time
 * made from it as luxon makes it (the instant moved by the offset, read as UTC). An hour the clocks
 * change in, a zone luxon refuses and a year outside 1000-9999 go through luxon itself.
 */
export function toLocal(ms: number, zone: string): string {
  const offset = offsetAt(ms, zone);
  if (offset !== undefined) {
    const wall = new Date(ms + offset * 60_000);
    const year = wall.getUTCFullYear();
    if (year >= 1000 && year <= 9999) {
      return `${year}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())} ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`;
    }
  }
  const dt = DateTime.fromMillis(ms, { zone });
  return !dt.isValid || dt.year < 1000 || dt.year > 9999
    ? dt.toFormat(LOCAL_FORMAT)
    : `${dt.year}-${two(dt.month)}-${two(dt.day)} ${two(dt.hour)}:${two(dt.minute)}:${two(dt.second)}`;
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?$/;

/**
 * Parses a wall-clock time in a zone. A time that does not exist there (the hour skipped when
 * clocks go forward) is refused rather than silently moved; an ambiguous one (the hour repeated
 * when clocks go back) takes the first occurrence.
 */
export function fromLocal(text: string, zone: string, field = 'time'): number {
  const match = LOCAL_RE.exec(text.trim());
  if (!match) throw new DomainError('INVALID_TIME', `${field} "${text}" is not a local time of the form yyyy-MM-dd HH:mm:ss`);
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  const parts = { year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: +s };
  const dt = DateTime.fromObject(parts, { zone });
  if (!dt.isValid) throw new DomainError('INVALID_TIME', `${field} "${text}" is not a valid date and time`);
  if (dt.year !== parts.year || dt.month !== parts.month || dt.day !== parts.day || dt.hour !== parts.hour || dt.minute !== parts.minute) {
    throw new DomainError('INVALID_TIME', `${field} "${text}" does not exist in ${zone} (the clocks skip it)`);
  }
  return firstOccurrence(dt);
}

/** luxon picks either occurrence of a repeated wall-clock time depending on the zone; take the earlier one. */
function firstOccurrence(dt: DateTime): number {
  const ms = dt.toMillis();
  for (const shift of [2 * 3_600_000, 3_600_000, 1_800_000]) {
    const earlier = DateTime.fromMillis(ms - shift, { zone: dt.zone });
    if (earlier.year === dt.year && earlier.month === dt.month && earlier.day === dt.day && earlier.hour === dt.hour && earlier.minute === dt.minute && earlier.second === dt.second) {
      return earlier.toMillis();
    }
  }
  return ms;
}

/** Parses an ISO-8601 instant with `Z` or an offset (a body's startTime/endTime). */
export function fromIso(text: string, field = 'time'): number {
  // luxon's parse is ~0.1 ms, once per booking item and every body time; the answer depends on the text alone
  // (sessions start at a few distinct times): memoised like parseTimeParam. Errors are not cached.
  const cached = parsedIsoCache.get(text);
  if (cached !== undefined) return cached;
  const ms = fromIsoUncached(text, field);
  if (parsedIsoCache.size >= PARAM_CACHE_SIZE) parsedIsoCache.clear();
  parsedIsoCache.set(text, ms);
  return ms;
}

const parsedIsoCache = new Map<string, number>();

function fromIsoUncached(text: string, field: string): number {
  const ms = isoInstantMs(text);
  if (ms === null) throw new DomainError('INVALID_TIME', `${field} "${text}" is not an ISO-8601 time with Z or an offset`);
  return ms;
}

export type Bound = 'lower' | 'upper';

/**
 * The one parser for time query parameters (every endpoint uses it). Accepts a date alone
 * (as an upper bound it covers that whole day), `yyyy-MM-dd HH:mm:ss` local, and ISO-8601 with
 * `Z` or an offset, also when the offset's `+` arrived as a space (an unencoded `+` in a query).
 */
export function parseTimeParam(raw: string, zone: string, bound: Bound, field: string): number {
  // luxon's zone arithmetic is the slow part of a search (one call per product and bound), and the
  // answer depends on nothing but the arguments: memoised like toLocal. Errors are not cached.
  const key = `${bound}|${zone}|${raw}`;
  const cached = paramCache.get(key);
  if (cached !== undefined) return cached;
  const ms = parseTimeParamUncached(raw, zone, bound, field);
  if (paramCache.size >= PARAM_CACHE_SIZE) paramCache.clear();
  paramCache.set(key, ms);
  return ms;
}

const PARAM_CACHE_SIZE = 5_000;
const paramCache = new Map<string, number>();

function parseTimeParamUncached(raw: string, zone: string, bound: Bound, field: string): number {
  const text = raw.trim();
  // "2030-01-02T09:00:00 10:00": the + of the offset was decoded to a space.
  const repaired = text.replace(/^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/, '$1+$2');
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(repaired) && /\d{2}:\d{2}/.test(repaired)) {
    return fromIso(repaired.replace(' ', 'T'), field);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const startOfDay = fromLocalLenient(text, zone, field);
    if (bound === 'lower') return startOfDay;
    return DateTime.fromMillis(startOfDay, { zone }).plus({ days: 1 }).toMillis() - 1;
  }
  return fromLocalLenient(text, zone, field);
}

/** Like fromLocal, but a bound that falls in a skipped hour moves forward instead of failing. */
function fromLocalLenient(text: string, zone: string, field: string): number {
  const match = LOCAL_RE.exec(text);
  if (!match) {
    throw new DomainError('INVALID_TIME', `${field} "${text}" is not a date (yyyy-MM-dd), a local time (yyyy-MM-dd HH:mm:ss) or an ISO-8601 time`);
  }
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  const dt = DateTime.fromObject({ year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: +s }, { zone });
  if (!dt.isValid || dt.day !== +d) throw new DomainError('INVALID_TIME', `${field} "${text}" is not a valid date`);
  return dt.toMillis();
}

/** The local calendar date (yyyy-MM-dd) of an instant. */
export function localDate(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd');
}
