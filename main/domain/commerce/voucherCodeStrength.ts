/** Letters and digits a code chosen by hand needs at least (dashes and underscores do not count). */
export const MIN_CODE_CHARACTERS = 8;
/** Different letters and digits it needs at least, so AAAAAAAA or ABABABAB is not enough. */
export const MIN_DISTINCT_CHARACTERS = 5;

/**
 * Why a code chosen by hand is too easy to guess, or undefined when it is strong enough. Codes
 * are case-insensitive, so only upper-case letters and digits count: at least MIN_CODE_CHARACTERS
 * of them, MIN_DISTINCT_CHARACTERS different, not digits alone (dates, phone numbers, counters).
 * Generated codes are not held to it: they are 50 random bits, not a choice.
 */
export function weakCodeReason(code: string): string | undefined {
  const characters = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const rule = `a code chosen by hand needs at least ${MIN_CODE_CHARACTERS} letters or digits (dashes and underscores do not count), at least ${MIN_DISTINCT_CHARACTERS} of them different, and not only digits; or leave code out to get a generated one`;
  if (characters.length < MIN_CODE_CHARACTERS) return `code ${code} is too short to be safe from guessing: ${rule}`;
  if (new Set(characters).size < MIN_DISTINCT_CHARACTERS) return `code ${code} has too few different characters to be safe from guessing: ${rule}`;
  if (/^[0-9]+$/.test(characters)) return `code ${code} is only digits, too easy to guess: ${rule}`;
  return undefined;
}
