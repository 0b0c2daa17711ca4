import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * What arrives on the wire before a route sees it: the origin of a request, the text of a JSON
 * body, and the URL as logged. Pure functions, so each rule is tested on its own.
 */

/** Any query parameter whose decoded name is an API key (`apiKey`, `%61piKey`, `api_key`, `API+Key`). */
const KEY_NAME = /^\s*api[\s_-]?key\s*$/i;

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Keys travel in the apiKey query parameter or header: a logged request shows neither, however the name is spelled. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq === -1 ? part : part.slice(0, eq);
      return KEY_NAME.test(decodeName(rawName)) ? `${rawName}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** `http://Host` as a browser writes the Origin of a page served under that Host (default ports dropped). */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * Why a request is refused as cross-site, or null. A browser sends Origin on every request a page
 * makes that is not a plain navigation or embed; the app's own pages are served by this server, so
 * their Origin names the Host the request came to (the Host header is checked against the bound and
 * allowed names first). `Sec-Fetch-Site: cross-site` refuses what carries no Origin (an <img> or
 * link with the key in the URL). No Origin and no Sec-Fetch-Site: not a browser (curl, client
 * libraries), which passes.
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders, extraOrigins: ReadonlySet<string>): string | null {
  const origin = headers.origin;
  if (typeof origin === 'string') {
    if (extraOrigins.has(origin.toLowerCase())) return null;
    const fromOrigin = originHost(origin);
    const requestHost = originHost(`http://${headers.host ?? ''}`);
    if (fromOrigin !== null && fromOrigin === requestHost) return null;
    return `Requests from another site are refused (Origin ${origin.length > 80 ? `${origin.slice(0, 60)}…` : origin}); call the API from TourDesk's own pages or without a browser`;
  }
  if (headers['sec-fetch-site'] === 'cross-site') return 'Requests from another site are refused (Sec-Fetch-Site: cross-site)';
  return null;
}

/**
 * An empty body sent as application/json: clients set that content type on every request, so on an
 * operation without a body it is no body; an operation that takes one still refuses it.
 */
export const EMPTY_JSON_BODY: unique symbol = Symbol('empty JSON body');

/** Length of the well-formed UTF-8 sequence at i (no overlongs, surrogates or code points over U+10FFFF), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  const n = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > bytes.length) return 0;
  for (let k = 1; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  const second = bytes[i + 1];
  if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second >= 0xa0) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second >= 0x90)) return 0;
  return n;
}

/**
 * The body as text. Each byte that is not well-formed UTF-8 becomes the JSON escape `\u0000`: inside
 * a string it turns into a NUL that `findBadText` then reports with the field's name; outside a
 * string it makes the JSON invalid. Nothing is silently replaced.
 */
export function jsonTextOf(body: Buffer): string {
  if (isUtf8(body)) return body.toString('utf8');
  let text = '';
  let start = 0;
  for (let i = 0; i < body.length; ) {
    const n = sequenceLength(body, i);
    if (n > 0) {
      i += n;
      continue;
    }
    text += `${body.toString('utf8', start, i)}\\u0000`;
    start = ++i;
  }
  return text + body.toString('utf8', start);
}

/** NUL, or a UTF-16 surrogate without its partner (what `\ud800` in JSON gives). */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path (`customer.firstName`, `items[0].participants[1]`) of the first string or key in a parsed body that no text field may hold, or null. */
export function findBadText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? path || '(body)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (BAD_TEXT.test(key)) return `${path ? `${path}.` : ''}(a field name)`;
      const found = findBadText(child, childPath);
      if (found !== null) return found;
    }
  }
  return null;
}
