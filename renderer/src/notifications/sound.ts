// The notification sound, made with the Web Audio API (no audio file to fetch or ship: the
// renderer loads nothing from the network, and a synthesised tone cannot be swapped by anyone).
// Audible by default: OS notification sounds are often off or muted per app, so the app plays its
// own and raises OS notifications silently. Browsers start an AudioContext suspended until the
// page has had a user gesture; an agent has always pressed a key or clicked by the time anything
// notifies, and `resume()` is asked for each time.
import type { SoundName } from './settings';

/** Notes of each sound: frequency (Hz), start and length (s). */
const tunes: Record<Exclude<SoundName, 'none'>, { type: OscillatorType; notes: [number, number, number][] }> = {
  chime: { type: 'sine', notes: [[880, 0, 0.18], [1318.5, 0.12, 0.35]] },
  ping: { type: 'triangle', notes: [[1568, 0, 0.25]] },
  knock: { type: 'square', notes: [[220, 0, 0.06], [220, 0.14, 0.06]] },
};

let context: AudioContext | undefined;

/** Plays `name` at `volume` (0 to 1). False where the page cannot play sound. */
export function playSound(name: SoundName, volume: number): boolean {
  if (name === 'none' || volume <= 0) return false;
  const Context = typeof AudioContext === 'function' ? AudioContext : undefined;
  if (!Context) return false;
  context ??= new Context();
  const ctx = context;
  void ctx.resume().catch(() => undefined);
  const tune = tunes[name];
  const start = ctx.currentTime + 0.01;
  for (const [frequency, at, length] of tune.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = tune.type;
    osc.frequency.value = frequency;
    // A short attack and an exponential decay: no click at either end.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, volume * 0.5), start + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.05);
  }
  return true;
}
