import type { Verdict } from './verdict';
import { UNREADABLE } from './wedge';
import { formats } from '../lib/formats';

/**
 * A code as any source hands it over (wedge, camera, typed) made fit to decide: control characters
 * out (a GS1 separator, a stray NUL), spaces trimmed. The engine takes codes of up to 500
 * characters; a longer one is no ticket's, and is answered on the device without asking.
 */
export const MAX_CODE = 500;

export function cleanCode(raw: string): { code: string; tooLong: boolean } {
  const code = raw.replace(/\p{Cc}/gu, '').trim();
  return { code, tooLong: code.length > MAX_CODE };
}

/** A code shown to a person: a long one cut, so a 4,000-character read does not fill the screen. */
export function shownCode(code: string, max = 40): string {
  if (code === UNREADABLE) return '(unreadable)';
  const chars = [...code];
  return chars.length <= max ? code : `${chars.slice(0, max - 1).join('')}… (${formats().count(chars.length)} characters)`;
}

/** The answer to a read no ticket can hold (too long, or nothing but control characters), given at once. */
export function unreadableVerdict(code: string): Verdict {
  const message =
    code === UNREADABLE
      ? 'The scanner sent only control characters. Scan the ticket again, or type its code.'
      : `This code has ${formats().count([...code].length)} characters; a ticket's has at most ${MAX_CODE}. Scan the ticket again, or type its code.`;
  return { code, kind: 'UNKNOWN_CODE', tone: 'red', word: 'UNKNOWN CODE', message, sessionId: null, sessionLabel: null, booking: null, people: [], admit: false, participantIds: [], others: [], override: null };
}
