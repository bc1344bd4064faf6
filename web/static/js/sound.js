// Sound synthesized with Web Audio (no files): a pebble's drop, a
// capture's clack, an ending chime. The context starts on a first gesture.

let ctx = null;
let on = true;

// setSound turns the sound on or off.
export function setSound(v) { on = !!v; }

// unlock creates the audio context; call it from a user gesture.
export function unlock() {
  if (ctx || !on) return;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  try { ctx = new AC(); } catch { ctx = null; }
}

function ready() {
  if (!on || !ctx) return false;
  if (ctx.state === 'suspended') ctx.resume();
  return true;
}

// tone plays a short sine or triangle note with a quick attack and decay.
function tone(freq, at, dur, gain, type = 'sine', slide = 0.7) {
  const t0 = ctx.currentTime + at;
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  o.frequency.exponentialRampToValueAtTime(freq * slide, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.006);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(ctx.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

// drop is a pebble landing on wood, a little different each time.
export function drop() {
  if (!ready()) return;
  const f = 620 + Math.random() * 160;
  tone(f, 0, 0.07, 0.12, 'sine', 0.55);
  tone(f * 2.7, 0, 0.03, 0.03, 'triangle', 0.8);
}

// capture is a handful of pebbles clacking into the store.
export function capture(stone) {
  if (!ready()) return;
  for (let i = 0; i < 4; i++) tone(520 + i * 90 + Math.random() * 40, i * 0.045, 0.08, 0.1, 'triangle', 0.6);
  if (stone) tone(180, 0, 0.25, 0.18, 'sine', 0.5);
}

// end is a short rising chime.
export function end(won) {
  if (!ready()) return;
  const notes = won === false ? [523, 440, 392] : [392, 494, 587, 784];
  notes.forEach((f, i) => tone(f, i * 0.12, 0.35, 0.1, 'sine', 0.98));
}

// call is two soft bells: something waits for the player (their turn, a
// friend who joined, an offer), heard from another tab; high, two short
// high ones: their clock is under 10 seconds.
export function call(high) {
  if (!ready()) return;
  tone(high ? 1046 : 659, 0, high ? 0.1 : 0.4, 0.09, 'sine', 0.99);
  tone(high ? 1046 : 880, 0.16, high ? 0.1 : 0.5, 0.09, 'sine', 0.99);
}
