// The clocks of a game online (docs/API.md, "Clocks"), drawn by each
// store's name: counted down from the server's figures, the low-time
// warning, the first move's limit, how long ago a player left, and time
// controls and times said in words.

import { t, plural, num } from './i18n.js';
import { isOnline, me, playerName, moverOf, game } from './state.js';
import { watchStates } from './turns.js';
import { announce } from './view.js';
import { $, el, setText, visible } from './dom.js';
import { take, showing, low, formatTime, formatClock, tookMs, spokenParts, awaySince } from './clock.js';
import * as sound from './sound.js';
import { aboutOther } from './names.js';

// The clocks are counted down from the server's last figures, kept with
// the instant they came (every state received, from turns.js
// watchStates, through clock.js take), recomputed at every frame while
// one runs, never added up frame by frame.
let clk = null;
let ticking = 0;
let warned = ''; // the game and ply whose low-time warning was given
// gone is since when each seat's player has been gone from the game, as
// the server counted it in the last state received ({id, since}:
// clock.js awaySince), to say how long ago they left when the game may
// be claimed.
let gone = null;

// clockEl returns seat p's clock, beside the store's name, made once.
function clockEl(p) {
  let c = $('clock-' + p);
  if (!c) {
    // A timer: its label is read when it has the focus, never announced
    // by itself (role timer is aria-live off).
    c = el('span', { id: 'clock-' + p, className: 'clock', role: 'timer', tabIndex: 0, hidden: true, 'aria-live': 'off' },
      el('span', { className: 'face', dir: 'ltr', 'aria-hidden': 'true' }));
  }
  const head = $('store-' + p).querySelector('.store-head');
  if (head && c.parentNode !== head) head.append(c);
  return c;
}

// drawClocks shows each side's clock, and the time left for a first
// move while one is timed, as they stand now; it keeps itself called
// every frame while a clock runs.
export function drawClocks() {
  const snap = clk;
  const st = game();
  const on = !!(snap && st && snap.id === st.id && isOnline());
  for (const p of [0, 1]) visible(clockEl(p), on);
  visible($('first-move'), on && snap.firstMoveMs !== null && !snap.over);
  if (!on) return;
  const now = performance.now();
  const { left, first } = showing(snap, now);
  const mine = me();
  const units = { days: t('clock.d'), hours: t('clock.h'), minutes: t('clock.m'), seconds: t('clock.s') };
  for (const p of [0, 1]) {
    const c = clockEl(p);
    // m:ss reads left to right in every language; days and hours, as
    // the language writes them ("۲ روز ۲۳ ساعت" right to left).
    const dir = snap.correspondence ? 'auto' : 'ltr';
    if (c.firstChild.dir !== dir) c.firstChild.dir = dir;
    setText(c.firstChild, localDigits(formatTime(snap, left[p], units)));
    const name = p === mine ? t('clock.yourTime', { time: spokenTime(left[p], snap.correspondence) })
      : t('clock.timeOf', { name: playerName(p), time: spokenTime(left[p], snap.correspondence) });
    if (c.getAttribute('aria-label') !== name) c.setAttribute('aria-label', name);
    c.classList.toggle('running', snap.running === p);
    c.classList.toggle('low', !snap.over && low(left[p], snap.correspondence));
    c.classList.toggle('out', left[p] <= 0);
  }
  if (first !== null && !snap.over) {
    const time = snap.correspondence ? formatTime(snap, first, units) : formatTime(snap, first);
    setText($('first-move'), t(st.toMove === mine ? 'clock.firstYou' : 'clock.firstOther', { name: playerName(st.toMove), time: localDigits(time) }));
  }
  // Under 10 s on this player's running clock: heard (if sound is on)
  // and said once a turn, seen as long as it lasts.
  const key = `${snap.id}:${snap.ply}`;
  if (mine !== null && snap.running === mine && low(left[mine], snap.correspondence) && left[mine] > 0 && warned !== key) {
    warned = key;
    sound.call(true);
    announce(t('clock.lowAnnounce'));
  }
  if (!$('claim').hidden) drawClaim(st, now);
  const runs = !snap.over && (snap.running !== null || snap.firstMoveMs !== null);
  if (runs && !ticking) ticking = requestAnimationFrame(tick);
}

// drawClaim says why the game may be claimed: how long ago the other
// player left, by the server's figure.
export function drawClaim(st, now) {
  const mine = me();
  const since = gone && gone.id === st.id && mine !== null ? gone.since[1 - mine] : null;
  setText($('claim-text'), since === null ? aboutOther('clock.claimText') : aboutOther('clock.claimAgo', { time: spokenTime(Math.max(0, now - since)) }));
}

function tick() {
  ticking = 0;
  drawClocks();
}

// clockShown returns the clock the page counts down from: the newest
// state's figures and the instant they came (clock.js take).
export function clockShown() { return clk; }

// controlText says a time control (docs/API.md, "Clocks": {initial,
// increment} in seconds, or {days}): "3 min + 2 s per move", "3 days
// per move".
export function controlText(c) {
  if (c.days) return plural('clock.daysPerMove', c.days);
  const min = c.initial / 60;
  return t('clock.control', { min: Number.isInteger(min) ? min : Number(min.toFixed(2)), inc: c.increment });
}

// spokenTime says a time in words ("2 minutes 41 seconds", "3 days
// 4 hours"), for screen readers and sentences.
export function spokenTime(ms, correspondence = false) {
  return Object.entries(spokenParts(ms, correspondence)).map(([unit, n]) => plural('clock.' + unit, n)).join(' ');
}

// localDigits writes a clock's digits in the page's (Persian ones in fa).
export function localDigits(text) {
  return text.replace(/[0-9]/g, (d) => num(Number(d)));
}

// tookText says how long the move that led to replay position index
// took, once the game is over ('' when the clock cannot say: clock.js
// tookMs): "4.2 s" under a minute, then the clock's "m:ss", or days and
// hours in correspondence.
export function tookText(st, index) {
  const ms = index > 0 && st?.clock ? tookMs(st.clock, st.moves.map((_, i) => moverOf(st, i)), index - 1) : null;
  if (ms === null) return '';
  const time = ms < 60000 ? t('clock.seconds1', { s: localDigits((Math.floor(ms / 100) / 10).toFixed(1)) })
    : st.clock.days ? spokenTime(ms, true) : localDigits(formatClock(ms));
  return t('clock.took', { time });
}

// init has the clocks follow every state received, from turns.js.
export function init() {
  watchStates((st, at) => { clk = take(clk, st, at); gone = { id: st.id, since: awaySince(st, at) }; });
}
