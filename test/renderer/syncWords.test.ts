import { describe, expect, it } from 'vitest';
import { clockWarning, clockWords, quietFor } from '../../renderer/src/components/syncWords';

const hub = 'http://192.168.1.20:8080';
const minutes = (n: number) => n * 60_000;

describe("the desk's words for its clock against a peer's", () => {
  it('reads in step under half a minute either way, and names the direction beyond', () => {
    expect(clockWords(null)).toBe('not measured yet');
    expect(clockWords(12_000)).toBe('in step');
    expect(clockWords(-29_000)).toBe('in step');
    // clockSkewMs is the peer's clock minus ours: positive means this computer is behind.
    expect(clockWords(45_000)).toBe('45 s behind');
    expect(clockWords(-minutes(7))).toBe('7 min ahead');
    expect(clockWords(minutes(180))).toBe('3 h behind');
  });

  it('warns in the status bar from a minute off, about the peer furthest off, and says when pages are refused', () => {
    expect(clockWarning([{ url: hub, clockSkewMs: 40_000 }, { url: 'http://b', clockSkewMs: null }])).toBeNull();
    const behind = clockWarning([{ url: 'http://near', clockSkewMs: 70_000 }, { url: hub, clockSkewMs: minutes(12) }]);
    expect(behind?.text).toBe(`Clock 12 min behind ${hub}`);
    expect(behind?.title).toMatch(/lose ties/);
    const slightlyAhead = clockWarning([{ url: hub, clockSkewMs: -minutes(3) }]);
    expect(slightlyAhead?.text).toBe(`Clock 3 min ahead of ${hub}`);
    expect(slightlyAhead?.title).not.toMatch(/refuses changes/);
    const farAhead = clockWarning([{ url: hub, clockSkewMs: -minutes(8) }]);
    expect(farAhead?.title).toMatch(/refuses changes stamped this far in its future/);
  });
});

describe('the limit the words name', () => {
  it('is the one the sync clock refuses by', async () => {
    const { DEFAULT_MAX_FUTURE_MS } = await import('../../main/sync/hlc');
    const { REFUSED_AHEAD_MS } = await import('../../renderer/src/components/syncWords');
    expect(REFUSED_AHEAD_MS).toBe(DEFAULT_MAX_FUTURE_MS);
  });
});

describe("a hub's words for the instances that sync with it", () => {
  it('calls one quiet once it has not exchanged for over three minutes, and says for how long', () => {
    const now = Date.parse('2030-01-01T12:00:00Z');
    // A desk syncing every few seconds, or backing off to two minutes while the hub was down.
    expect(quietFor('2030-01-01T11:59:55Z', now)).toBeNull();
    expect(quietFor('2030-01-01T11:58:00Z', now)).toBeNull();
    expect(quietFor('2030-01-01T11:50:00Z', now)).toBe('10 min');
    expect(quietFor('2029-12-31T22:00:00Z', now)).toBe('14 h');
    expect(quietFor('2029-12-27T12:00:00Z', now)).toBe('5 days');
  });
});
