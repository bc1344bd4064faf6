// Motion: the hand that carries the pebbles round the ring, and pebbles
// arriving where an event puts them (a drop from the hand, a capture into
// the store, a refill from the store, a loan from the other store). It
// runs after the board has been redrawn for the event: the pebbles that
// arrived are already in place, and each is animated from where it came
// from, with transforms only (no layout), so the browser's compositor
// does the work.

import { num } from './i18n.js';
import { pebble, spotOf } from './pebbles.js';
import { cellEl, LEFT } from './board.js';

const $ = (id) => document.getElementById(id);

let hand = null;

function handEl() {
  if (hand) return hand;
  hand = document.createElement('div');
  hand.className = 'hand';
  hand.hidden = true;
  const pile = document.createElement('span');
  pile.className = 'hand-pile';
  for (let i = 0; i < 5; i++) pile.append(pebble(97, i, [22 + (i % 3) * 28, 30 + Math.floor(i / 3) * 36]));
  const n = document.createElement('b');
  hand.append(pile, n);
  $('fly').append(hand);
  return hand;
}

function centre(e) {
  const r = e.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function pileOf(c) {
  return cellEl($('game-board'), c)?.querySelector('.pile');
}

// handAt puts the hand over cell c with n pebbles, gliding there in ms
// (at once when it was hidden); lift makes it rise as a pile is taken.
function handAt(c, n, ms, lift) {
  const h = handEl();
  const cell = cellEl($('game-board'), c);
  if (!cell) return;
  const p = centre(cell.querySelector('.pile'));
  const r = cell.getBoundingClientRect();
  const y = p.y - r.height * 0.42;
  h.style.transition = h.hidden ? 'none' : `transform ${ms}ms ease-in-out`;
  h.style.transform = `translate(${Math.round(p.x)}px, ${Math.round(y)}px)`;
  h.lastChild.textContent = num(n);
  h.hidden = false;
  if (lift) h.animate([{ translate: `0 ${Math.round(r.height * 0.3)}px`, scale: 0.7 }, { translate: '0 0', scale: 1 }], { duration: ms, easing: 'ease-out' });
}

export function hideHand() {
  if (hand) hand.hidden = true;
}

// handPoint is where the hand is now, or null.
function handPoint() {
  if (!hand || hand.hidden) return null;
  const r = hand.querySelector('.hand-pile').getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// arrive animates elements from point from to where they are.
function arrive(els, from, ms, stagger = 0) {
  let n = 0;
  els.forEach((e, i) => {
    const to = centre(e);
    const dx = Math.round(from.x - to.x);
    const dy = Math.round(from.y - to.y);
    const lift = Math.round(-Math.min(60, Math.hypot(dx, dy) * 0.25));
    e.animate([
      { translate: `${dx}px ${dy}px`, scale: 1.15, opacity: 0.9 },
      { translate: `${Math.round(dx / 2)}px ${Math.round(dy / 2) + lift}px`, scale: 1.3, offset: 0.5 },
      { translate: '0 0', scale: 1, opacity: 1 },
    ], { duration: ms, delay: i * stagger, easing: 'ease-in-out', fill: 'backwards' });
    n++;
  });
  return n;
}

// ghost flies a loose pebble from one point to another, for pebbles that
// land in a pile already drawn in full.
function ghost(from, to, ms, delay = 0) {
  const g = pebble(7, 3, [0, 0]);
  g.classList.add('ghost');
  g.style.left = `${Math.round(to.x)}px`;
  g.style.top = `${Math.round(to.y)}px`;
  $('fly').append(g);
  const a = g.animate([
    { translate: `${Math.round(from.x - to.x)}px ${Math.round(from.y - to.y)}px` },
    { translate: '0 0', opacity: 0.3 },
  ], { duration: ms, delay, easing: 'ease-in-out', fill: 'backwards' });
  a.onfinish = () => g.remove();
  return 1;
}

// newest returns the last k pebbles of a pile (those just drawn).
function newest(box, k) {
  if (!box || k <= 0) return [];
  return [...box.children].slice(-k);
}

function trayOf(p) {
  return $(`store-${p}`)?.querySelector('.tray');
}

// play animates event ev, already drawn, over ms milliseconds, given the
// pebbles in hand after it. It returns how many things moved (for the
// tests' trace).
export function play(ev, handAfter, ms) {
  const c = ev.cell;
  switch (ev.kind) {
    case 'pickup':
    case 'relay':
      handAt(c, handAfter, Math.round(ms * 0.6), true);
      return 1;
    case 'drop': {
      const from = handPoint();
      handAt(c, handAfter, Math.round(ms * 0.5), false);
      const box = pileOf(c);
      const landed = newest(box, box && box.childElementCount === ev.count ? 1 : 0);
      if (handAfter === 0) hideHand();
      if (!from) return 0;
      if (landed.length) return arrive(landed, from, Math.round(ms * 0.7));
      return ghost(from, centre(box), Math.round(ms * 0.7));
    }
    case 'capture': {
      hideHand();
      const src = pileOf(c);
      const from = src ? centre(src) : null;
      if (!from) return 0;
      const tray = trayOf(ev.player);
      let moved = 0;
      if (ev.stone) {
        const stones = $(`store-${ev.player}`).querySelectorAll('.store-stones .stone');
        if (stones.length) moved += arrive([stones[stones.length - 1]], centre(cellEl($('game-board'), c).querySelector('.stone')), ms * 0.8);
      }
      const k = Math.min(ev.count, 12);
      const landed = newest(tray, Math.min(k, tray ? tray.childElementCount : 0));
      const stagger = Math.round((ms * 0.3) / Math.max(1, k));
      moved += arrive(landed, from, Math.round(ms * 0.6), stagger);
      for (let i = landed.length; i < k; i++) moved += ghost(from, centre(tray), Math.round(ms * 0.6), i * stagger);
      return moved;
    }
    case 'refill': {
      hideHand();
      const from = centre(trayOf(ev.player) || $('game-board'));
      const row = ev.player === 0 ? [6, 7, 8, 9, 10] : [4, 3, 2, 1, 0];
      let moved = 0;
      row.forEach((rc, i) => { moved += arrive(newest(pileOf(rc), 1), from, Math.round(ms * 0.5), Math.round(ms * 0.08) * i); });
      return moved;
    }
    case 'borrow': {
      const from = centre(trayOf(1 - ev.player));
      return arrive(newest(trayOf(ev.player), Math.min(ev.count, 6)), from, Math.round(ms * 0.6), 40);
    }
    case 'exchange': {
      const box = $(`store-${ev.player}`);
      box.animate([{ scale: 1 }, { scale: 1.06 }, { scale: 1 }], { duration: Math.round(ms * 0.6) });
      return 1;
    }
    case 'stop': {
      hideHand();
      const cell = c >= 0 ? cellEl($('game-board'), c) : null;
      if (cell) cell.animate([{ scale: 1 }, { scale: c === LEFT ? 1.03 : 1.05 }, { scale: 1 }], { duration: Math.round(ms * 0.5) });
      return cell ? 1 : 0;
    }
    default:
      hideHand();
      return 0;
  }
}
