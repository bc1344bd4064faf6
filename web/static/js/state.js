// The page's state (what the server reported, what is on screen, the
// settings) and the questions asked of it: whose turn, which moves, names.
// The pipeline (turns.js) writes what it shows here, so that the modules
// it uses (view.js) read it without importing it.

import { t } from './i18n.js';
import { squareOf, cellOf, ownerOf, onBottom } from './board.js';
import * as Q from './turnq.js';

const SETTINGS_KEY = 'oanquan.settings';

// S is the page's own state; the game shown and its turns are the
// pipeline's (P, below). The panels write S (game.js, controls.js,
// replay.js, newgame.js), notes view.js (note), settings saveSettings.
export const S = {
  selected: null, // the square chosen, its arrows shown
  hinted: null, // the move a hint points at
  focusAfter: undefined, // the square to focus once the turn is shown
  watching: false, // the game was opened without its seat secret
  seat: null, // the seat this browser plays in an online game
  feed: null, // the game's feed (api.js subscribe): close it to leave
  replay: null, // {plies, index, model, marks, record, total} while going back through a finished game
  reviewing: false, // a review is open (review.js)
  notes: [], // the page's own messages after the turns, as functions
  shownEnd: null, // the game whose ending was shown (its dialog opened once)
  offline: '', // the status's key while the server is out of reach
  alert: null, // what went wrong, said at the board until the player acts (a function)
  pending: null, // {cell, dir, retrying}: the move sent, not yet answered
  link: '', // the game's feed (api.js subscribe): 'up', 'connecting', 'reconnecting', '' before it says
  named: null, // names.js, set by online.js: p => seat p's name online, or undefined
  settings: loadSettings(),
};

function loadSettings() {
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const def = { mode: 'ai', level: 'easy', first: 0, anim: reduce ? 'off' : 'normal', variants: [], sound: true };
  try { return { ...def, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}') }; } catch { return def; }
}

export function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { /* storage off */ }
}

// What the pipeline shows -------------------------------------------------

// P is the pipeline's state, written by turns.js alone. news counts
// states and turns received, so that an answer older than the news is
// dropped (game.js, fetchState).
export const P = {
  q: Q.queue(), state: null, model: null, thinking: false, news: 0,
  last: null, // the last move: {start, path, capture} sets of cells, stop
  turns: [], // the turn log: {key, ply, player, move, title, items} with texts as functions
  active: null, hand: 0, // the cell an event acts on, the pebbles in hand
  snapshots: new Map(), // ply -> model, the positions seen in this session
  said: [], // what the turns shown since the last pause say
  // presence is who is connected as last received: newer than that of a
  // turn's state shown after it (the state of its moment), which it
  // stands in for.
  presence: null,
};

// snapshot returns what the pipeline shows: the game's state, model,
// phase, last move, turn log, the cell acted on and the hand.
export function snapshot() {
  const { q, ...shown } = P;
  return { ...shown, phase: q.phase, waiting: q.queue.length };
}

// game returns the game's state shown (never to be changed).
export function game() { return P.state; }

// Names ----------------------------------------------------------------

export function isAI() { return game()?.mode === 'ai'; }
export function isOnline() { return game()?.mode === 'online'; }
export function human() { return game()?.human ?? 0; }

// me returns the seat this page plays for one person (against the
// computer, or online), or null (two players on one device, watching).
export function me() {
  if (S.replay && S.replay.record) return null; // a pasted record: players 1 and 2
  if (isAI()) return human();
  if (isOnline() && !S.watching && (S.seat === 0 || S.seat === 1)) return S.seat;
  return null;
}

// playerName names player p: you and the computer or your friend when
// one person plays here, else players 1 and 2; online, S.named's.
export function playerName(p) {
  const mine = me();
  if (p === mine) return t('player.you');
  return S.named?.(p) || t(mine === null ? (p ? 'player.p2' : 'player.p1') : isAI() ? 'player.computer' : 'player.friend');
}

export function isYou(p) { return me() !== null && p === me(); }

// flipped says whether the board is drawn turned round: for the player
// of the top row (squares 0 to 4), whose own row is then nearest them.
export function flipped() {
  return (isAI() && human() === 1) || (isOnline() && !S.watching && S.seat === 1);
}

// playText returns a function that says "p plays move", the move in
// words: its square and the way it sows on this page's screen.
export function playText(p, move) {
  return () => {
    const words = moveWords(move);
    return isYou(p) ? t('msg.youPlay', { move: words }) : t('msg.play', { name: playerName(p), move: words });
  };
}

// moveWords says move (notation, "5R") in the page's language: its
// square and the way its pebbles travel on screen, as its arrow shows.
export function moveWords(move) {
  return t('move.words', { square: parseInt(move, 10), dir: t(screenDir(move) === 'left' ? 'dir.left' : 'dir.right') });
}

export function ownerWord(c) {
  const p = ownerOf(c);
  const mine = me();
  const name = p !== mine && S.named?.(p);
  if (name) return t('lobby.ownerOf', { name });
  if (mine === null) return t(p ? 'owner.p2' : 'owner.p1');
  return t(p === mine ? 'owner.yours' : isAI() ? 'owner.computer' : 'owner.friend');
}

// moverOf returns who played move i of the state, as its history says.
export function moverOf(st, i) {
  return ((st.history || [])[i] || {}).player ?? st.first;
}

// Legal moves and directions ---------------------------------------------

export function legalSet() {
  const { state, phase, waiting } = snapshot();
  if (!state || phase !== 'idle' || waiting || S.watching || S.replay) return new Set();
  if (isOnline() && state.toMove !== me()) return new Set();
  return new Set(state.legal || []);
}

export function legalCells() {
  const cells = new Set();
  for (const m of legalSet()) cells.add(cellOf(parseInt(m, 10)));
  return cells;
}

// moveFor turns a screen direction into a move. "R" runs toward higher
// numbers: rightward on the bottom row, leftward on the top row.
export function moveFor(c, screen) {
  const bottom = onBottom(c, flipped());
  const letter = (screen === 'right') === bottom ? 'R' : 'L';
  return `${squareOf(c)}${letter}`;
}

export function screenDir(move) {
  const c = cellOf(parseInt(move, 10));
  return move.endsWith('R') === onBottom(c, flipped()) ? 'right' : 'left';
}

// canUndo says whether there is a move to take back, as the server says.
export function canUndo() {
  return !!(game()?.canUndo && !S.watching && !isOnline());
}
