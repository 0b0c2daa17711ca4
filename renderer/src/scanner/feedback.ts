import type { Tone } from './verdict';

/**
 * A sound and a buzz per verdict, so a guide looking at the passenger rather than the screen
 * still knows: a rising two-note chime for "in", a low double buzz for "no", a single mid note
 * for "look at the screen". WebAudio tones, so nothing to download.
 */
let audio: AudioContext | null = null;

function tone(ctx: AudioContext, frequency: number, start: number, duration: number, type: OscillatorType) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.3, ctx.currentTime + start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + duration);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + duration + 0.02);
}

const PATTERNS: Record<Tone, { notes: [number, number, number, OscillatorType][]; vibrate: number[] }> = {
  green: { notes: [[880, 0, 0.09, 'sine'], [1320, 0.1, 0.14, 'sine']], vibrate: [60] },
  amber: { notes: [[660, 0, 0.18, 'triangle'], [660, 0.24, 0.18, 'triangle']], vibrate: [120, 80, 120] },
  red: { notes: [[180, 0, 0.22, 'square'], [160, 0.3, 0.3, 'square']], vibrate: [300, 120, 300] },
  blue: { notes: [[740, 0, 0.08, 'sine']], vibrate: [40] },
};

export function signal(kind: Tone): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
    for (const [f, start, duration, type] of PATTERNS[kind].notes) tone(audio, f, start, duration, type);
  } catch {
    /* no audio device: the colour, icon and word still say it */
  }
  if (typeof navigator.vibrate === 'function') navigator.vibrate(PATTERNS[kind].vibrate);
}
