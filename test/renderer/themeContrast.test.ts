import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The theme tokens of renderer/src/styles.css, per `data-theme` block. */
function themes(): Record<string, Record<string, string>> {
  const css = readFileSync(resolve(import.meta.dirname, '../../renderer/src/styles.css'), 'utf8');
  const out: Record<string, Record<string, string>> = {};
  for (const block of css.matchAll(/:root\[data-theme=(\w+)\]\s*\{([^}]*)\}/g)) {
    const tokens: Record<string, string> = {};
    for (const [, name, value] of block[2].matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\b/g)) tokens[name] = value;
    if (Object.keys(tokens).length) out[block[1]] = tokens;
  }
  return out;
}

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Every pair of tokens the stylesheet puts text on: [text, background]. */
const PAIRS: [string, string][] = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface-2'],
  ['muted', 'surface'],
  ['muted', 'bg'],
  ['muted', 'surface-2'],
  ['link', 'surface'],
  ['link', 'bg'],
  ['link', 'accent-soft'],
  ['on-accent', 'accent'],
  ['on-accent-soft', 'accent-soft'],
  ['ok', 'surface'],
  ['bad', 'surface'],
  ['bad', 'bg'],
  ['on-ok-soft', 'ok-soft'],
  ['on-bad-soft', 'bad-soft'],
  ['on-warn-soft', 'warn-soft'],
  ['on-danger', 'danger'],
  ['on-header', 'header'],
  ['bg', 'text'], // toasts are drawn inverted
];

describe('theme contrast', () => {
  const all = themes();

  it('defines the light, dark and sunlight themes with the same tokens', () => {
    expect(Object.keys(all).sort()).toEqual(['dark', 'light', 'sunlight']);
    expect(Object.keys(all.dark).sort()).toEqual(Object.keys(all.light).sort());
    expect(Object.keys(all.sunlight).sort()).toEqual(Object.keys(all.light).sort());
  });

  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const [theme, minimum] of [['light', 4.5], ['dark', 4.5], ['sunlight', 7]] as const) {
    it(`keeps every text pair at ${minimum}:1 or more in ${theme}`, () => {
      const tokens = all[theme];
      const failures = PAIRS.map(([fg, bg]) => ({ pair: `${fg} on ${bg}`, ratio: Math.round(contrast(tokens[fg], tokens[bg]) * 100) / 100 })).filter((p) => !(p.ratio >= minimum));
      expect(failures).toEqual([]);
    });
  }
});
