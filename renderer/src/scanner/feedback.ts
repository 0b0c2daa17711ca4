import type { Tone } from './verdict';

/**
 * A sound and a buzz per verdict, so a guide looking at the passenger rather than the screen
 * still knows: a rising two-note chime for "in", a low double buzz for "no", a single mid note
 * for "look at the screen". WebAudio tones, so nothing to download.
 *
 * The sound never stands between a scan and its verdict on screen: the first `new AudioContext()`
 * sets up the audio device (~110 ms in Chromium here, ~20 ms more for the first tone), so the
 * scanner makes it and sounds a silent tone as it opens (`prepareFeedback`), and
 * each sound starts once the frame showing the verdict has been painted.
 *
 * A phone's browser makes that output suspended and plays nothing until a person has touched the
 * page (a camera scan is no touch), so the first tap, click or key unlocks it, and until then the
 * scanner says so (`soundWaitsForTap`).
 */
let audio: AudioContext | null = null;
const soundListeners = new Set<() => void>();
const soundChanged = () => soundListeners.forEach((listener) => listener());

/** True while the output is there but the browser holds it until a tap; false once it plays, or where there is no sound. */
export function soundWaitsForTap(): boolean {
  return audio !== null && audio.state !== 'running';
}

/** Calls `listener` whenever `soundWaitsForTap()` may have changed; returns the unsubscribe (as `useSyncExternalStore` wants). */
export function onSoundChange(listener: () => void): () => void {
  soundListeners.add(listener);
  return () => soundListeners.delete(listener);
}

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

/** The audio output, made on first need; null where the page has none (no device, no WebAudio). */
function output(): AudioContext | null {
  if (audio) return audio;
  try {
    audio = new AudioContext();
  } catch {
    return null;
  }
  audio.addEventListener('statechange', soundChanged);
  soundChanged();
  return audio;
}

/** Resumes an output the browser created suspended (no user gesture yet); a gesture's handler may. */
function resume(): void {
  if (audio?.state === 'suspended') audio.resume().catch(() => undefined);
}

/**
 * After the next frame is painted: a task queued from an animation-frame callback runs once that
 * frame is on screen. A hidden page paints no frames, so there it runs at once.
 */
function afterPaint(work: () => void): void {
  if (typeof document === 'undefined' || document.hidden || typeof requestAnimationFrame !== 'function') return work();
  requestAnimationFrame(() => setTimeout(work, 0));
}

function play(kind: Tone): void {
  const ctx = output();
  if (!ctx) return; // no audio device: the colour, icon and word still say it
  try {
    resume();
    for (const [f, start, duration, type] of PATTERNS[kind].notes) tone(ctx, f, start, duration, type);
  } catch {
    /* the device went away: the screen still says it */
  }
}

/** A verdict's sound (once its frame is on screen) and buzz. */
export function signal(kind: Tone): void {
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate(PATTERNS[kind].vibrate);
  afterPaint(() => play(kind));
}

/** A tone nobody hears: the first oscillator graph costs ~20 ms more, paid here rather than after the first verdict. */
function silentTone(ctx: AudioContext): void {
  try {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    gain.gain.value = 0;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.01);
  } catch {
    /* no device: nothing to warm */
  }
}

const GESTURES = ['pointerdown', 'touchend', 'keydown', 'click'] as const;

/**
 * Gets the audio output ready as the scanner screen opens, and lets the first tap or key
 * resume it (browsers create it suspended without a gesture; iOS plays nothing until a gesture
 * has resumed it, and a camera scan is no gesture). A gesture never creates the output itself:
 * that would put the set-up cost in front of the first wedge scan. Returns the clean-up.
 */
export function prepareFeedback(): () => void {
  if (typeof window === 'undefined') return () => undefined;
  const onGesture = () => {
    resume();
    if (audio?.state === 'running') for (const name of GESTURES) window.removeEventListener(name, onGesture, true);
  };
  for (const name of GESTURES) window.addEventListener(name, onGesture, true);
  const make = () => {
    const ctx = output();
    resume();
    if (ctx) silentTone(ctx);
  };
  // Right after the screen's first paint, while it loads its copy of the manifests: waiting for an idle
  // moment could leave it to the first scans (a wedge's burst comes as soon as the copy is there).
  const timer = setTimeout(make, 0);
  return () => {
    clearTimeout(timer);
    for (const name of GESTURES) window.removeEventListener(name, onGesture, true);
  };
}
