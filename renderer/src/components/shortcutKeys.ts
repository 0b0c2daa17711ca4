/**
 * The rule that lets the keyboard shortcuts and the scan box share the keyboard: the scan box takes
 * codes, not shortcut keys. A shortcut key is one typed outside a text field, or into an EMPTY scan
 * box (a code never starts there with '?' or '/'), and "g" then a letter only at a person's pace: a
 * wedge scanner types a whole code with at most WEDGE_GAP_MS between keys (scanner/wedge.ts), so a
 * letter that follows "g" that fast is part of a code and both keys go into the box. Pure: the
 * Shortcuts component feeds it key events.
 */
export const WEDGE_GAP_MS = 100;
/** How long "g" waits for its letter. */
export const GO_WINDOW_MS = 1500;

export interface KeyInput {
  key: string;
  /** When the key went down (ms). */
  time: number;
  /** The focus is in a text field (input, textarea, select, contenteditable). */
  inField: boolean;
  /** That field is the scan box, and it is empty. */
  inEmptyScanBox: boolean;
  /** When a "g" was held back, or null. */
  heldG: number | null;
  /** The page has a scan box (only then can a fast "g…" be a scanner's code). */
  scanBoxOnPage: boolean;
}

export type KeyAction =
  | { kind: 'help' }
  | { kind: 'search' }
  /** Hold the "g" (in the scan box it is not typed yet: it may still be a code's first letter). */
  | { kind: 'holdG' }
  | { kind: 'go'; letter: string }
  /** Not a shortcut: the key types as usual, after the held "g" if there was one. */
  | { kind: 'type'; releaseG: boolean };

export function shortcutAction(input: KeyInput, goKeys: readonly string[]): KeyAction {
  if (input.heldG !== null) {
    const gap = input.time - input.heldG;
    const personPaced = !input.scanBoxOnPage || gap > WEDGE_GAP_MS;
    if (goKeys.includes(input.key) && personPaced && gap <= GO_WINDOW_MS) return { kind: 'go', letter: input.key };
    return { kind: 'type', releaseG: true };
  }
  if (input.inField && !input.inEmptyScanBox) return { kind: 'type', releaseG: false };
  if (input.key === '?') return { kind: 'help' };
  if (input.key === '/') return { kind: 'search' };
  if (input.key === 'g') return { kind: 'holdG' };
  return { kind: 'type', releaseG: false };
}
