import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bcp47, formatsFor, participantLabel, seatsLeft, seatsLeftParts } from '../../main/domain/format';

// ICU writes a narrow no-break space before am/pm in some versions: compare with plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('the one format module', () => {
  const au = formatsFor({ locale: 'en_AU', timezone: 'Australia/Sydney' });
  const us = formatsFor({ locale: 'en_US', timezone: 'America/New_York' });
  const de = formatsFor({ locale: 'de_DE', timezone: 'Europe/Berlin' });

  it("reads the company's stored locale as BCP-47, and falls back to English for one Intl refuses", () => {
    expect(bcp47('en_AU')).toBe('en-AU');
    expect(bcp47('de-DE')).toBe('de-DE');
    expect(bcp47('en_US.UTF-8')).toBe('en-US');
    expect(bcp47('not a locale!')).toBe('en');
    expect(bcp47(null)).toBe('en');
    expect(formatsFor({ locale: 'en_AU', timezone: 'Mars/Olympus' }).timeZone).toBe('UTC');
  });

  it('writes times 12- or 24-hour as the locale says', () => {
    expect(plain(au.time('2026-11-28 09:00:00'))).toBe('9:00 am');
    expect(plain(us.time('2026-11-28 21:05'))).toBe('9:05 PM');
    expect(de.time('2026-11-28 21:05:00')).toBe('21:05');
    expect(de.timeWithSeconds('2026-11-28 21:05:07')).toBe('21:05:07');
    expect(de.time('2026-11-28 09:00')).toBe('09:00');
    expect(formatsFor({ locale: 'en_GB', timezone: 'Europe/London' }).time('2026-11-28 04:30')).toBe('04:30');
  });

  it('writes dates with the month in words, in the locale order', () => {
    expect(au.date('2026-11-28')).toMatch(/^Sat,? 28 Nov 2026$/);
    expect(us.date('2026-11-28')).toBe('Sat, Nov 28, 2026');
    expect(de.date('2026-11-28')).toMatch(/^Sa\.?, 28\. Nov\.? 2026$/);
    expect(au.dateLong('2030-01-01')).toMatch(/^Tuesday,? 1 January 2030$/);
    expect(au.dayShort('2026-11-28')).toMatch(/^Sat,? 28 Nov$/);
    expect(us.dayShort('2026-11-28')).toBe('Sat, Nov 28');
  });

  it("shows an instant in the company's zone, across midnight from UTC", () => {
    // 22:10 UTC on the 27th is 09:10 on the 28th in Sydney (AEDT, +11).
    const booked = '2026-11-27T22:10:28Z';
    expect(plain(au.dateTime(booked))).toMatch(/^Sat,? 28 Nov 2026, 9:10 am$/);
    expect(plain(us.dateTime(booked))).toBe('Fri, Nov 27, 2026, 5:10 PM');
    expect(de.dateTime(booked)).toMatch(/^Fr\.?, 27\. Nov\.? 2026, 23:10$/);
    expect(plain(au.time(Date.parse(booked)))).toBe('9:10 am');
    expect(plain(au.time(new Date(booked)))).toBe('9:10 am');
    expect([au.dayOf(booked), us.dayOf(booked)]).toEqual(['2026-11-28', '2026-11-27']);
  });

  it("shows a wall-clock *Local time as it stands, whatever the company's zone", () => {
    expect(plain(us.dateTime('2026-11-28 09:00:00'))).toBe('Sat, Nov 28, 2026, 9:00 AM');
    expect(au.date('2026-11-28')).toBe(formatsFor({ locale: 'en_AU', timezone: 'Pacific/Honolulu' }).date('2026-11-28'));
  });

  it('writes money in the locale with the currency its own digits', () => {
    expect(au.money(357, 'AUD')).toBe('$357.00');
    expect(us.money(357, 'AUD')).toBe('A$357.00');
    expect(plain(de.money(1357.5, 'AUD'))).toBe('1.357,50 AU$');
    expect(us.money(1357, 'JPY')).toBe('¥1,357');
    expect(plain(au.money(1357, 'JPY'))).toMatch(/^(JPY ?|¥)1,357$/);
    expect(au.money(12.5, 'ZZZZ')).toBe('12.50 ZZZZ');
    expect(de.count(1000)).toBe('1.000');
  });

  it('types and reads dates in the locale order', () => {
    expect([au.datePattern, us.datePattern, de.datePattern]).toEqual(['dd/mm/yyyy', 'mm/dd/yyyy', 'dd.mm.yyyy']);
    expect(au.dayInput('2026-11-28')).toBe('28/11/2026');
    expect(us.dayInput('2026-11-28')).toBe('11/28/2026');
    expect(au.parseDay('28/11/2026')).toBe('2026-11-28');
    expect(us.parseDay('11/28/2026')).toBe('2026-11-28');
    expect(de.parseDay('1.2.26')).toBe('2026-02-01');
    expect(au.parseDay('2026-11-28')).toBe('2026-11-28');
    expect(au.parseDay('11/28/2026')).toBeNull();
    expect(au.parseDay('31/02/2026')).toBeNull();
    expect(au.parseDay('tomorrow')).toBeNull();
  });

  it('leaves a value that is no date as it came', () => {
    expect(au.dateTime('not a date')).toBe('not a date');
  });

  it('calls a participant without a name "Participant N" everywhere', () => {
    expect(participantLabel({ name: 'Ada Lovelace', position: 0 })).toBe('Ada Lovelace');
    expect(participantLabel({ name: null, position: 0 })).toBe('Participant 1');
    expect(participantLabel({ name: '  ', position: 2 })).toBe('Participant 3');
  });

  it('words seats left, or by how many a departure is oversold, one way for every screen and page', () => {
    expect(seatsLeft(3)).toBe('3 left');
    expect(seatsLeft(0)).toBe('0 left');
    expect(seatsLeft(-2)).toBe('2 over');
    expect(seatsLeft(5, 'available')).toBe('5 available');
    expect(seatsLeft(-2, 'available')).toBe('2 over');
    expect(seatsLeftParts(-1)).toEqual({ count: 1, word: 'over' });
  });

  it('keeps the formats of settings as given, and the same answer for every spelling of one locale and zone', () => {
    const sydney = formatsFor({ locale: 'en_AU', timezone: 'Australia/Sydney' });
    expect(formatsFor({ locale: 'en_AU', timezone: 'Australia/Sydney' })).toBe(sydney);
    expect(formatsFor({ locale: 'en-AU', timezone: 'Australia/Sydney' })).toBe(sydney);
    expect(formatsFor({ locale: 'en_US', timezone: 'Australia/Sydney' }).locale).toBe('en-US');
    // A zone Intl refuses falls back to UTC on every call, the kept one too.
    for (let i = 0; i < 2; i++) expect(formatsFor({ locale: 'en_AU', timezone: 'Not/AZone' }).timeZone).toBe('UTC');
    // No pair of settings is taken for another: the separator inside a locale moves no zone.
    expect(formatsFor({ locale: 'en_AU|Europe', timezone: 'Berlin' }).timeZone).toBe('UTC');
    expect(formatsFor({ locale: 'en_AU', timezone: 'Europe|Berlin' }).timeZone).toBe('UTC');
    expect(formatsFor({ locale: 'en_AU', timezone: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
  });

  it('imports nothing, so the renderer bundles it as it is', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../main/domain/format.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export\s+\*|export\s+\{[^}]*\}\s+from)\b|\brequire\(|\bimport\(/m);
  });
});
