import { formats } from '../lib/formats';

/** A yyyy-MM-dd day in words ("Tuesday 1 January 2030"), in the company's locale; the date itself, not the device's day. */
export function dayInWords(day: string): string {
  return formats().dateLong(day);
}

export function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
