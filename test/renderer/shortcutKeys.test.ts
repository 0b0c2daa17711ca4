import { describe, expect, it } from 'vitest';
import { shortcutAction, WEDGE_GAP_MS, type KeyInput } from '../../renderer/src/components/shortcutKeys';

const GO = ['d', 'b', 'c', 's'];
const key = (k: string, over: Partial<KeyInput> = {}) => shortcutAction({ key: k, time: 10_000, inField: false, inEmptyScanBox: false, heldG: null, scanBoxOnPage: true, ...over }, GO);
const inEmptyBox = { inField: true, inEmptyScanBox: true };
const inTypedBox = { inField: true, inEmptyScanBox: false };

describe('shortcut keys beside the scan box', () => {
  it('are shortcuts outside a field', () => {
    expect(key('?')).toEqual({ kind: 'help' });
    expect(key('/')).toEqual({ kind: 'search' });
    expect(key('g')).toEqual({ kind: 'holdG' });
    expect(key('x')).toEqual({ kind: 'type', releaseG: false });
  });

  it('are shortcuts in the empty scan box, and text once a code is being typed or in any other field', () => {
    expect(key('/', inEmptyBox)).toEqual({ kind: 'search' });
    expect(key('?', inEmptyBox)).toEqual({ kind: 'help' });
    expect(key('g', inEmptyBox)).toEqual({ kind: 'holdG' });
    expect(key('/', inTypedBox)).toEqual({ kind: 'type', releaseG: false });
    expect(key('g', inTypedBox)).toEqual({ kind: 'type', releaseG: false });
    expect(key('?', { inField: true, inEmptyScanBox: false })).toEqual({ kind: 'type', releaseG: false });
  });

  it('go to a screen when a letter follows "g" at a person\'s pace', () => {
    expect(key('b', { ...inEmptyBox, heldG: 10_000 - 300 })).toEqual({ kind: 'go', letter: 'b' });
    expect(key('d', { heldG: 10_000 - 1_000 })).toEqual({ kind: 'go', letter: 'd' });
    // Without a scan box on the page no key can be a code: "g b" at any speed goes.
    expect(key('b', { heldG: 10_000 - 10, scanBoxOnPage: false })).toEqual({ kind: 'go', letter: 'b' });
  });

  it('give the "g" back to the code when the next key comes at a scanner\'s pace, is no shortcut letter, or comes too late', () => {
    expect(key('b', { ...inEmptyBox, heldG: 10_000 - WEDGE_GAP_MS })).toEqual({ kind: 'type', releaseG: true });
    expect(key('7', { ...inEmptyBox, heldG: 10_000 - 300 })).toEqual({ kind: 'type', releaseG: true });
    expect(key('b', { ...inEmptyBox, heldG: 10_000 - 5_000 })).toEqual({ kind: 'type', releaseG: true });
  });
});
