/**
 * How TourDesk writes dates, times and money for people: in the company's locale ('en_AU' is BCP-47
 * 'en-AU') and zone, 12- or 24-hour as the locale says. The desk's screens, the scanner, the printable
 * manifest and its CSV all take their words from here, so one booking reads the same everywhere. It
 * imports nothing: the renderer bundles it as it is (RENDERER_SHARED_CODE in eslint.config.js).
 *
 * A value is either an instant (ISO 8601 with Z or an offset, epoch ms, a Date), shown in the
 * company's zone, or a `*Local` wall-clock string ('yyyy-MM-dd', 'yyyy-MM-dd HH:mm[:ss]'), which
 * already is the company's time and is shown as it stands.
 */

export interface FormatSettings {
  /** The company's locale as stored ('en_AU'), or a BCP-47 tag; unknown or malformed falls back to 'en'. */
  locale?: string | null;
  /** An IANA zone; unknown falls back to UTC. */
  timezone?: string | null;
}

export type Moment = string | number | Date;

export interface Formats {
  /** The BCP-47 tag and the zone actually used (after fallbacks). */
  readonly locale: string;
  readonly timeZone: string;
  /** 'Sat 28 Nov 2026' (en-AU): the month in words, so day and month cannot be swapped. */
  date(value: Moment): string;
  /** 'Saturday 28 November 2026' (en-AU). */
  dateLong(value: Moment): string;
  /** 'Sat 28 Nov' (en-AU), 'Sat, Nov 28' (en-US): a day heading where the year is plain from around it. */
  dayShort(value: Moment): string;
  /** '9:00 am' (en-AU), '9:00 AM' (en-US), '09:00' (de-DE). */
  time(value: Moment): string;
  /** The time with seconds (a clock the person watches move). */
  timeWithSeconds(value: Moment): string;
  /** 'Sat 28 Nov 2026, 9:00 am' (en-AU). */
  dateTime(value: Moment): string;
  /** An amount in major units: '$357.00' (AUD, en-AU), 'A$357.00' (AUD, en-US), '¥1,357' (JPY, en-US). */
  money(amount: number, currency: string): string;
  /** A count with the locale's grouping: '1,000' (en-AU), '1.000' (de-DE). */
  count(value: number): string;
  /** The company's calendar day (yyyy-MM-dd) of an instant: its 'today' when given now. */
  dayOf(value: Moment): string;
  /** How a typed date reads in this locale: 'dd/mm/yyyy' (en-AU), 'mm/dd/yyyy' (en-US), 'dd.mm.yyyy' (de-DE). */
  readonly datePattern: string;
  /** A yyyy-MM-dd day as the locale types it ('28/11/2026'). */
  dayInput(day: string): string;
  /** A date typed in the locale's order (or as yyyy-MM-dd) as yyyy-MM-dd; null when it is no real date. */
  parseDay(text: string): string | null;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** 'en_AU' -> 'en-AU'; a tag Intl does not take -> 'en'. */
export function bcp47(locale: string | null | undefined): string {
  const tag = (locale ?? '').trim().replace(/[.@].*$/, '').replace(/_/g, '-');
  if (!tag) return 'en';
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf([canonical]).length ? canonical : 'en';
  } catch {
    return 'en';
  }
}

function zoneOrUtc(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** A value as the instant to format and the zone to read it in (a wall-clock string is read as UTC). */
function instantOf(value: Moment, zone: string): { date: Date; zone: string } | null {
  if (typeof value === 'string') {
    const wall = WALL_CLOCK.exec(value);
    if (wall && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(value)) {
      const [, y, mo, d, h = '0', mi = '0', s = '0'] = wall;
      const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
      // A date-only value is noon, so no zone could move it to another day.
      if (wall[4] === undefined) date.setUTCHours(12);
      return Number.isNaN(date.getTime()) ? null : { date, zone: 'UTC' };
    }
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : { date, zone };
}

const cache = new Map<string, Formats>();
/**
 * The same formats by the settings as given, before they are canonicalised: checking a locale and a
 * zone with Intl (bcp47, zoneOrUtc) costs more than a scan's other work in JavaScript, and every scan
 * asks twice.
 */
const bySettings = new Map<string, Formats>();

/** The formats of a company (cached: lists format thousands of values with the same few formatters). */
export function formatsFor(settings: FormatSettings): Formats {
  const locale0 = settings.locale ?? '';
  // Length-prefixed: no locale and zone pair spells another's key.
  const given = `${locale0.length}:${locale0}|${settings.timezone ?? ''}`;
  const known = bySettings.get(given);
  if (known) return known;
  const locale = bcp47(settings.locale);
  const timeZone = zoneOrUtc(settings.timezone);
  const key = `${locale}|${timeZone}`;
  let formats = cache.get(key);
  if (!formats) {
    if (cache.size > 50) cache.clear();
    formats = makeFormats(locale, timeZone);
    cache.set(key, formats);
  }
  if (bySettings.size > 50) bySettings.clear();
  bySettings.set(given, formats);
  return formats;
}

const DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };

function makeFormats(locale: string, timeZone: string): Formats {
  // A 24-hour locale writes 09:00, a 12-hour one 9:00 am.
  const h12 = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hour12;
  const TIME: Intl.DateTimeFormatOptions = { hour: h12 ? 'numeric' : '2-digit', minute: '2-digit' };
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const show = (name: string, options: Intl.DateTimeFormatOptions) => (value: Moment) => {
    const at = instantOf(value, timeZone);
    if (!at) return String(value);
    const key = `${name}|${at.zone}`;
    let formatter = formatters.get(key);
    if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: at.zone })));
    return formatter.format(at.date);
  };
  const moneyFormats = new Map<string, Intl.NumberFormat | null>();
  const counts = new Intl.NumberFormat(locale);
  const order = dateOrder(locale);
  return {
    locale,
    timeZone,
    date: show('date', DATE),
    dateLong: show('dateLong', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
    dayShort: show('dayShort', { weekday: 'short', day: 'numeric', month: 'short' }),
    time: show('time', TIME),
    timeWithSeconds: show('timeWithSeconds', { ...TIME, second: '2-digit' }),
    dateTime: show('dateTime', { ...DATE, ...TIME }),
    money(amount, currency) {
      if (!moneyFormats.has(currency)) {
        try {
          moneyFormats.set(currency, new Intl.NumberFormat(locale, { style: 'currency', currency }));
        } catch {
          moneyFormats.set(currency, null);
        }
      }
      const formatter = moneyFormats.get(currency);
      return formatter ? formatter.format(amount) : `${amount.toFixed(2)} ${currency}`;
    },
    count: (value) => counts.format(value),
    dayOf(value) {
      const at = instantOf(value, timeZone);
      if (!at) return String(value);
      const parts = Object.fromEntries(dayParts(at.zone).formatToParts(at.date).map((p) => [p.type, p.value]));
      return `${parts.year}-${parts.month}-${parts.day}`;
    },
    datePattern: order.fields.map((f) => (f === 'year' ? 'yyyy' : f === 'month' ? 'mm' : 'dd')).join(order.separator),
    dayInput(day) {
      const wall = WALL_CLOCK.exec(day);
      if (!wall) return day;
      const parts: Record<string, string> = { year: wall[1], month: wall[2], day: wall[3] };
      return order.fields.map((f) => parts[f]).join(order.separator);
    },
    parseDay: (text) => parseDay(text, order.fields),
  };
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
function dayParts(zone: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(zone);
  if (!formatter) dayFormatters.set(zone, (formatter = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone })));
  return formatter;
}

type DateField = 'year' | 'month' | 'day';

/** The locale's numeric date order and separator, as Intl writes a date. */
function dateOrder(locale: string): { fields: DateField[]; separator: string } {
  const parts = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2026, 10, 28)));
  const fields = parts.map((p) => p.type).filter((t): t is DateField => t === 'year' || t === 'month' || t === 'day');
  const separator = parts.find((p) => p.type === 'literal')?.value.trim() || '/';
  return fields.length === 3 ? { fields, separator } : { fields: ['year', 'month', 'day'], separator: '-' };
}

function parseDay(text: string, fields: DateField[]): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  const numbers = iso ? iso.slice(1) : trimmed.split(/[^0-9]+/).filter(Boolean);
  if (numbers.length !== 3) return null;
  const value: Record<DateField, number> = { year: 0, month: 0, day: 0 };
  (iso ? (['year', 'month', 'day'] as DateField[]) : fields).forEach((f, i) => (value[f] = Number(numbers[i])));
  if (value.year < 100) value.year += 2000;
  const date = new Date(Date.UTC(value.year, value.month - 1, value.day));
  if (date.getUTCFullYear() !== value.year || date.getUTCMonth() !== value.month - 1 || date.getUTCDate() !== value.day) return null;
  return date.toISOString().slice(0, 10);
}

/** This device's own zone (only for a clock labelled as the device's, or before the company's is known). */
export function deviceZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Seats left on a departure, or by how many it is oversold (2 over): one wording for the board, the
 * week, the scanner, the oversold notice and the printable manifest. `left` names spare seats
 * ("left" on screens, "available" on the printable page).
 */
export function seatsLeftParts(available: number, left: 'left' | 'available' = 'left'): { count: number; word: 'over' | 'left' | 'available' } {
  return available < 0 ? { count: -available, word: 'over' } : { count: available, word: left };
}

/** seatsLeftParts as words: '3 left', '2 over'. */
export function seatsLeft(available: number, left: 'left' | 'available' = 'left'): string {
  const { count, word } = seatsLeftParts(available, left);
  return `${count} ${word}`;
}

/** What a participant is called on every screen, page and file: their name, else 'Participant N' (N from 1). */
export function participantLabel(participant: { name?: string | null; position: number }): string {
  return participant.name?.trim() || `Participant ${participant.position + 1}`;
}
