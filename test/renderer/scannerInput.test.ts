import { describe, expect, it } from 'vitest';
import { createWedge, MAX_WEDGE_CODE, UNREADABLE } from '../../renderer/src/scanner/wedge';
import { cleanCode, MAX_CODE, shownCode, unreadableVerdict } from '../../renderer/src/scanner/codeInput';

const burst = (wedge: ReturnType<typeof createWedge>, keys: readonly string[], start = 1000) => {
  keys.forEach((key, i) => wedge.key(key, start + i));
  return wedge.key('Enter', start + keys.length);
};

describe('bad input from a wedge scanner', () => {
  it('keeps an emoji in the code (one character of two UTF-16 units), so the code is read as sent', () => {
    expect(burst(createWedge(), [...'AB😀CD'])).toBe('AB😀CD');
  });

  it('answers a burst of nothing but control characters as an unreadable read, not silence', () => {
    expect(burst(createWedge(), ['\u0000', '\u001d', '\u0007', '\u001b'])).toBe(UNREADABLE);
    // Control characters inside a code are dropped, as a GS1 separator always was.
    expect(burst(createWedge(), [...'T1\u001d-42'])).toBe('T1-42');
  });

  it('bounds a 4,000-character burst (and a stuck key) instead of growing without end', () => {
    const wedge = createWedge();
    expect(burst(wedge, Array.from({ length: 4000 }, (_, i) => String.fromCharCode(65 + (i % 26))))).toHaveLength(4000);
    expect(burst(wedge, Array.from({ length: 10_000 }, () => 'x'), 50_000)).toHaveLength(MAX_WEDGE_CODE);
  });
});

describe('a code made fit to decide', () => {
  it('drops control characters and trims, from any source', () => {
    expect(cleanCode(' \u0000TD-1\u001d2\n')).toEqual({ code: 'TD-12', tooLong: false });
    expect(cleanCode('\u0007\u0008')).toEqual({ code: '', tooLong: false });
  });

  it('calls a code longer than the engine takes too long, and the verdict says UNKNOWN in words', () => {
    const long = 'A'.repeat(4000);
    expect(cleanCode(long).tooLong).toBe(true);
    expect(cleanCode('A'.repeat(MAX_CODE)).tooLong).toBe(false);
    const verdict = unreadableVerdict(long);
    expect([verdict.kind, verdict.word, verdict.admit]).toEqual(['UNKNOWN_CODE', 'UNKNOWN CODE', false]);
    expect(verdict.message).toMatch(/4,000 characters.*at most 500/);
    expect(unreadableVerdict(UNREADABLE).message).toMatch(/only control characters/);
  });

  it('shows a long code cut to a line, counting characters not UTF-16 units', () => {
    expect(shownCode('T1-00042')).toBe('T1-00042');
    const cut = shownCode('😀'.repeat(100));
    expect(cut).toMatch(/^😀{39}… \(100 characters\)$/u);
    expect(shownCode(UNREADABLE)).toBe('(unreadable)');
  });
});
