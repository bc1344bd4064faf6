// Pebbles: shaded, each a little different in shape, size and tone.
// Pebble i of a pile sits at spot i, so adding one never moves the others
// and none overlap, and looks as a hash of (pile, i) says, so a redraw
// shows the very same pebble.

// MAX is the most pebbles drawn in one pile; the count says the rest.
export const MAX = 18;

// SPOTS: the pebbles' centres in % of the pile's box, a sunflower for a
// square, a column three abreast from the bottom for a mandarin square.
const SPOTS = {
  round: Array.from({ length: MAX }, (_, i) => {
    const r = 46 * Math.sqrt((i + 0.5) / MAX);
    const a = i * 2.39996 + 0.9;
    return [50 + r * Math.cos(a), 50 + r * Math.sin(a)];
  }),
  column: Array.from({ length: MAX }, (_, i) => {
    const row = Math.floor(i / 3);
    const col = i % 3;
    return [18 + col * 32 + (row % 2 ? 6 : -4) + ((i * 7) % 5) - 2, 91 - row * 16.4];
  }),
};

// look returns a pebble's variation: a small integer hash of (seed, i).
function look(seed, i) {
  let h = (seed * 374761393 + i * 668265263) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
  return h ^ (h >>> 16);
}

// HUES are the pebbles' tones: mostly warm river browns, some slate.
const HUES = [24, 32, 40, 205, 28, 215, 36, 48, 20, 30];

const SHAPES = ['48% 52% 46% 54% / 55% 47% 53% 45%', '55% 45% 52% 48% / 47% 55% 45% 53%', '50%', '45% 55% 55% 45% / 50% 50% 50% 50%'];

// pebble makes pebble i of the pile seeded seed.
export function pebble(seed, i, spot = SPOTS.round[i % MAX]) {
  const h = look(seed, i);
  const e = document.createElement('i');
  e.className = 'pb';
  const s = e.style;
  s.left = spot[0].toFixed(1) + '%';
  s.top = spot[1].toFixed(1) + '%';
  s.borderRadius = SHAPES[h & 3];
  s.setProperty('--r', ((h >>> 2) % 180) + 'deg');
  s.setProperty('--k', (0.9 + ((h >>> 9) % 18) / 100).toFixed(2));
  s.setProperty('--l', ((h >>> 15) % 17) - 8 + '%');
  s.setProperty('--hue', String(HUES[(h >>> 20) % HUES.length]));
  return e;
}

// drawPile shows n pebbles (at most MAX) in box, only appending or
// removing the last ones.
export function drawPile(box, n, seed, layout = 'round') {
  const want = Math.min(n, MAX);
  while (box.childElementCount > want) box.lastElementChild.remove();
  for (let i = box.childElementCount; i < want; i++) box.append(pebble(seed, i, SPOTS[layout][i]));
}

// spotOf returns the centre of pebble i of a pile whose box is r.
export function spotOf(r, i, layout = 'round') {
  const [x, y] = SPOTS[layout][Math.min(i, MAX - 1)];
  return { x: r.left + (r.width * x) / 100, y: r.top + (r.height * y) / 100 };
}
