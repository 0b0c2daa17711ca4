/**
 * Keyboard-wedge scanners (USB and Bluetooth) type a code as fast keystrokes ending in Enter or
 * Tab. A burst with every key at most `maxGapMs` apart and more than `minLength - 1` characters is
 * a scan; a person typing is slower and never makes one. Pure: the screen feeds it key events.
 */
interface WedgeOptions {
  maxGapMs?: number;
  minLength?: number;
}

interface Wedge {
  /** One keydown (`key` as KeyboardEvent.key, `time` in ms); returns the code when this key ended a scan. */
  key(key: string, time: number): string | null;
  reset(): void;
}

/** What the wedge keeps of one burst: a scanner stuck on a key cannot grow it without end. */
export const MAX_WEDGE_CODE = 4_096;
/** A burst of nothing but control characters: a read, but of nothing a ticket holds. */
export const UNREADABLE = '\uFFFD';

const CONTROL = /\p{Cc}/u;

export function createWedge({ maxGapMs = 100, minLength = 4 }: WedgeOptions = {}): Wedge {
  let buffer = '';
  let controls = 0;
  let last = -Infinity;
  return {
    key(key, time) {
      const gap = time - last;
      last = time;
      if (key === 'Enter' || key === 'Tab') {
        const code = buffer;
        const read = code.length + controls;
        buffer = '';
        controls = 0;
        if (gap > maxGapMs || read < minLength) return null;
        return code || UNREADABLE;
      }
      if (gap > maxGapMs) {
        buffer = '';
        controls = 0;
      }
      // Control characters (a GS1 group separator some scanners send) are not part of a code, but
      // count toward the burst. Shift, dead keys and the like are names, not one character: an
      // emoji is one character of two UTF-16 units, and stays in the code (which no ticket has).
      if (key.length === 1 && CONTROL.test(key)) controls++;
      else if ([...key].length === 1 && buffer.length < MAX_WEDGE_CODE) buffer += key;
      return null;
    },
    reset() {
      buffer = '';
      controls = 0;
      last = -Infinity;
    },
  };
}

/**
 * The same code read again within the window does not fire again (a wedge scanner's double read,
 * a ticket held in front of the camera). Each read of a suppressed code restarts its window, so a
 * code held in view fires once however long it stays there.
 */
export function createSuppressor() {
  const lastSeen = new Map<string, number>();
  return {
    shouldFire(code: string, now: number, windowMs: number): boolean {
      const previous = lastSeen.get(code);
      lastSeen.set(code, now);
      if (lastSeen.size > 500) lastSeen.delete(lastSeen.keys().next().value!);
      return previous === undefined || now - previous >= windowMs;
    },
  };
}

export const SUPPRESS_MS = { wedge: 5000, camera: 2500, typed: 0, search: 0 } as const;
export type ScanSource = keyof typeof SUPPRESS_MS;
