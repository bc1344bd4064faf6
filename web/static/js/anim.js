// Motion: the hand carrying pebbles round the ring, and pebbles arriving
// where an event puts them (from the hand, into a store, from a store).
// It runs after the event's redraw: each new pebble is animated from where
// it came, by transforms only. Places are measured once a turn (measure):
// measuring after each redraw would force a layout.

import { num } from './i18n.js';
import { pebble, spotOf } from './pebbles.js';
import { cellEl, isMandarin, screenOrder } from './board.js';
import { $, el } from './dom.js';

let hand = null;
let handPos = null; // where the hand is, in viewport pixels, or null
let G = null; // the measured geometry: see measure

// measure notes where the squares' piles and the stores' trays are.
export function measure() {
  const board = $('game-board');
  const rect = (e) => e.getBoundingClientRect();
  G = { board: rect(board), cell: [], pile: [], tray: [0, 1].map((p) => rect($(`store-${p}`).querySelector('.tray'))) };
  for (let c = 0; c < 12; c++) {
    const cell = cellEl(board, c);
    G.cell[c] = rect(cell);
    G.pile[c] = rect(cell.querySelector('.pile'));
  }
  G.hs = Math.round(Math.max(40, G.cell[6].width * 0.45));
  handEl().style.setProperty('--hs', `${G.hs}px`);
  const pb = board.querySelector('.pile .pb');
  G.pb = pb ? pb.offsetWidth / Number(pb.style.getPropertyValue('--k') || 1) : 12;
}
addEventListener('resize', () => { G = null; });

function geo() {
  if (!G) measure();
  return G;
}

function mid(r) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

function handEl() {
  if (hand) return hand;
  const pile = el('span', 'hand-pile');
  for (let i = 0; i < 5; i++) pile.append(pebble(97, i, [22 + (i % 3) * 28, 30 + Math.floor(i / 3) * 36]));
  hand = el('div', { className: 'hand', hidden: true }, pile, el('b'));
  $('fly').append(hand);
  return hand;
}

// handAt puts the hand over cell c with n pebbles, gliding there in ms
// (at once when it was hidden); lift makes it rise as a pile is taken.
function handAt(c, n, ms, lift) {
  const h = handEl();
  const p = mid(geo().pile[c]);
  const lh = geo().cell[c].height;
  // Above the pile, but never above the board, with its count's badge
  // (12 px over the hand's top, .hand b): what is just above it — the
  // presence line, the status — stays readable.
  const y = Math.round(Math.max(p.y - lh * 0.42, G.board.top + G.hs * 0.4 + 12));
  h.style.transition = h.hidden ? 'none' : `transform ${ms}ms ease-in-out`;
  h.style.transform = `translate(${Math.round(p.x)}px, ${y}px)`;
  h.lastChild.textContent = num(n);
  [...h.firstChild.children].forEach((p, i) => { p.hidden = i >= n; });
  h.hidden = false;
  handPos = { x: p.x, y };
  if (lift) h.animate([{ translate: `0 ${Math.round(lh * 0.3)}px`, scale: 0.7 }, { translate: '0 0', scale: 1 }], { duration: ms, easing: 'ease-out' });
}

export function hideHand() {
  if (hand) hand.hidden = true;
  handPos = null;
}

// arrive flies each [element, where it is] in from point from: a copy
// flies over everything (the piles contain their own painting), and the
// element shows when it lands.
function arrive(pairs, from, ms, stagger = 0, width = geo().pb) {
  pairs.forEach(([e, to], i) => {
    const g = e.cloneNode(false);
    g.classList.add('ghost');
    g.style.left = `${Math.round(to.x)}px`;
    g.style.top = `${Math.round(to.y)}px`;
    g.style.width = `${Math.round(width * Number(e.style.getPropertyValue('--k') || 1))}px`;
    $('fly').append(g);
    e.style.opacity = '0';
    const dx = Math.round(from.x - to.x);
    const dy = Math.round(from.y - to.y);
    const lift = Math.round(-Math.min(60, Math.hypot(dx, dy) * 0.25));
    g.animate([
      { translate: `${dx}px ${dy}px`, scale: 1.15 },
      { translate: `${Math.round(dx / 2)}px ${Math.round(dy / 2) + lift}px`, scale: 1.3, offset: 0.5 },
      { translate: '0 0', scale: 1 },
    ], { duration: ms, delay: i * stagger, easing: 'ease-in-out', fill: 'backwards' }).onfinish = () => { g.remove(); e.style.opacity = ''; };
  });
  return pairs.length;
}

// loose is a pebble flying to a pile already drawn in full.
const loose = (to, i = 3) => [pebble(7, i, [0, 0]), to];

// landed pairs the last k pebbles of a pile with where they sit.
function landed(box, r, k, layout = 'round') {
  if (!box || k <= 0) return [];
  const n = box.childElementCount;
  const out = [];
  for (let i = Math.max(0, n - k); i < n; i++) out.push([box.children[i], spotOf(r, i, layout)]);
  return out;
}

const pileOf = (c) => cellEl($('game-board'), c)?.querySelector('.pile');
const trayOf = (p) => $(`store-${p}`)?.querySelector('.tray');
const layoutOf = (c) => (isMandarin(c) ? 'column' : 'round');

// play animates event ev, already drawn, over ms, with handAfter pebbles
// in hand after it; it returns how many things moved.
export function play(ev, handAfter, ms) {
  const c = ev.cell;
  const g = geo();
  switch (ev.kind) {
    case 'pickup':
    case 'relay':
      handAt(c, handAfter, Math.round(ms * 0.6), true);
      return 1;
    case 'drop': {
      const from = handPos;
      handAt(c, handAfter, Math.round(ms * 0.5), false);
      const box = pileOf(c);
      const got = landed(box, g.pile[c], box && box.childElementCount === ev.count ? 1 : 0, layoutOf(c));
      if (handAfter === 0) hideHand();
      if (!from) return 0;
      return arrive(got.length ? got : [loose(mid(g.pile[c]))], from, Math.round(ms * 0.7));
    }
    case 'capture': {
      hideHand();
      const from = mid(g.pile[c]);
      let moved = 0;
      if (ev.stone) {
        const stones = $(`store-${ev.player}`).querySelectorAll('.store-stones .stone');
        const s = stones[stones.length - 1];
        if (s) { const r = s.getBoundingClientRect(); moved += arrive([[s, mid(r)]], { x: from.x, y: g.cell[c].top + g.cell[c].height * 0.25 }, Math.round(ms * 0.8), 0, r.width); }
      }
      const k = Math.min(ev.count, 12);
      const tray = trayOf(ev.player);
      const got = landed(tray, g.tray[ev.player], Math.min(k, tray ? tray.childElementCount : 0));
      const stagger = Math.round((ms * 0.3) / Math.max(1, k));
      for (let i = got.length; i < k; i++) got.push(loose(mid(g.tray[ev.player]), i));
      return moved + arrive(got, from, Math.round(ms * 0.6), stagger);
    }
    case 'refill': {
      hideHand();
      const from = mid(g.tray[ev.player]);
      const order = screenOrder($('game-board').dataset.flipped === 'true'); // left to right as drawn
      const row = [...ev.cells].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      let moved = 0;
      row.forEach((rc, i) => { moved += arrive(landed(pileOf(rc), g.pile[rc], 1), from, Math.round(ms * 0.5), Math.round(ms * 0.08) * i); });
      return moved;
    }
    case 'borrow':
      return arrive(landed(trayOf(ev.player), g.tray[ev.player], Math.min(ev.count, 6)), mid(g.tray[1 - ev.player]), Math.round(ms * 0.6), 40);
    case 'exchange':
      $(`store-${ev.player}`).animate([{ scale: 1 }, { scale: 1.06 }, { scale: 1 }], { duration: Math.round(ms * 0.6) });
      return 1;
    case 'stop': {
      hideHand();
      const cell = c >= 0 ? cellEl($('game-board'), c) : null;
      if (cell) cell.animate([{ scale: 1 }, { scale: 1.04 }, { scale: 1 }], { duration: Math.round(ms * 0.5) });
      return cell ? 1 : 0;
    }
    default:
      hideHand();
      return 0;
  }
}
