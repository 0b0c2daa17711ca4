/** A key's role in the words the settings screen shows. */
export const ROLE_WORDS: Record<string, string> = { supplier: 'Office (everything)', agent: 'Agent (their own bookings)', checkin: 'Check-in (scan and tick off)' };
