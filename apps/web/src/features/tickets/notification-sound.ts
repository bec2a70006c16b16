/**
 * The new-message sound (core section 2 "Top bar": notifications): a short two-tone beep made with
 * the Web Audio API at the user's volume (0..1). Browsers may refuse to play before the user has
 * interacted with the page; that refusal is ignored silently.
 */
type AudioContextCtor = new () => AudioContext;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (context) return context;
  const w = window as Window & { webkitAudioContext?: AudioContextCtor };
  const Ctor: AudioContextCtor | undefined = window.AudioContext ?? w.webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

/** Plays the notification beep at `volume` (0 plays nothing). Never throws. */
export function playNotificationSound(volume: number): void {
  const level = Math.min(1, Math.max(0, Number.isFinite(volume) ? volume : 1));
  if (level === 0) return;
  try {
    const ctx = audioContext();
    if (!ctx) return;
    const play = () => {
      const start = ctx.currentTime;
      const gain = ctx.createGain();
      gain.connect(ctx.destination);
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.3 * level, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
      const tones: [number, number][] = [
        [880, 0],
        [1320, 0.12],
      ];
      for (const [frequency, offset] of tones) {
        const osc = ctx.createOscillator();
        osc.type = 'sine';
        osc.frequency.setValueAtTime(frequency, start + offset);
        osc.connect(gain);
        osc.start(start + offset);
        osc.stop(start + offset + 0.2);
      }
    };
    if (ctx.state === 'suspended') ctx.resume().then(play, () => {});
    else play();
  } catch {
    // Autoplay refused or audio unavailable: stay silent.
  }
}
