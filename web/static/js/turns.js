// The turn pipeline: it owns what is shown of the game (its state, the
// board's model, the last move's marks, the turn log) and the turns
// waiting (turnq.js). Everything reaches it as a message: the game's feed
// and the HTTP answers send receive({type, …}), the controller show (a new
// game), replace (an undo), sending and skip; other modules read what it
// shows (state.js: snapshot(), game()) and observe() it. Each turn is
// shown event by event (model change, one batched redraw, motion, sound,
// pause), or at once when skipping, with animation off or the page hidden.

import { modelOf, applyEvent, delayFor, important } from './play.js';
import { S, isAI, me, playerName, isYou, playText, moverOf, P } from './state.js';
import { invalidate, frame, announce, statusText } from './view.js';
import * as Q from './turnq.js';
import * as anim from './anim.js';
import * as sound from './sound.js';

let watcher = null;

// watchStates has fn(state, now) see each state as it comes (clocks).
export function watchStates(fn) { watcher = fn; }
let wake = null;
const observers = [];

// observe calls fn with each thing shown: {type: 'state', state}, {type:
// 'turn', turn} as its showing starts, {type: 'event', event, moved} (how
// many things moved), {type: 'done'} when the last turn queued is shown.
export function observe(fn) { observers.push(fn); }

function tell(msg) { for (const fn of observers) fn(msg); }

// receive takes a message of the game's feed (docs/API.md: turn, state,
// thinking, presence; fromFeed true), or an HTTP answer sent as one.
export function receive(msg, fromFeed = false) {
  // Who is connected: the feed's word, in order; an HTTP answer's (of
  // the moment it was made, maybe before the feed's last) only while the
  // feed is not up.
  const st = msg.type === 'turn' ? msg.turn.state : msg.state;
  if (st && P.state && st.id === P.state.id && st.presence && (fromFeed || S.link !== 'up')) P.presence = st.presence;
  if (watcher && st && P.state && st.id === P.state.id) watcher(st, performance.now());
  if (msg.type === 'turn') takeTurn(msg.turn);
  else if (msg.type === 'state') takeState(msg.state);
  else if (msg.type === 'thinking') P.thinking = msg.thinking;
  else if (msg.type === 'presence' && P.state) P.presence = msg.presence;
  // Shown at once, whatever turn is still being shown.
  if (P.state && P.presence && P.state.presence && P.state.presence !== P.presence) P.state = { ...P.state, presence: P.presence };
  invalidate();
}

function takeTurn(turn) {
  P.news++;
  if (!P.state || turn.state.id !== P.state.id) return;
  const what = Q.take(P.q, turn);
  if (what === 'jump') showState(turn.state);
  else if (what === 'queue') pump();
}

function takeState(state) {
  P.news++;
  if (!P.state || state.id !== P.state.id) return;
  const what = Q.replace(P.q, state);
  if (what === 'thinking') P.thinking = state.thinking;
  else if (what === 'cut') wakeUp();
  else {
    if (what === 'back') P.last = null;
    showState(state);
  }
}

// show puts a new game on screen, forgetting everything shown.
export function show(state) {
  Object.assign(P, { last: null, turns: [], snapshots: new Map(), presence: state.presence || null });
  if (watcher) watcher(state, performance.now());
  Q.reset(P.q, state);
  wakeUp();
  anim.hideHand();
  showState(state);
}

// replace shows the game's state after an undo.
export function replace(state) {
  P.last = null;
  Q.undone(P.q, state);
  showState(state);
}

// sending says a move is sent (on) or answered (off): no move is offered
// meanwhile.
export function sending(on) {
  Q.send(P.q, on);
  invalidate();
}

// skip finishes the turn shown and the computer's reply: everything up to
// the next move a person makes.
export function skip() {
  if (!Q.skip(P.q, P.state && P.state.thinking)) return;
  wakeUp();
  invalidate();
}

function wakeUp() { if (wake) wake(); }

function showState(state) {
  P.news++;
  P.state = P.presence && state.presence ? { ...state, presence: P.presence } : state;
  P.model = modelOf(state);
  P.snapshots.set(state.ply, modelOf(state));
  P.thinking = state.thinking;
  Q.seen(P.q, state);
  syncLog(state);
  invalidate();
  tell({ type: 'state', state });
}

function pause(ms) {
  if (!ms || quick()) return Promise.resolve();
  return new Promise((resolve) => {
    const id = setTimeout(done, ms);
    function done() { clearTimeout(id); wake = null; resolve(); }
    wake = done;
  });
}

// quick says whether events are shown without motion.
function quick() {
  return !!P.q.skip || S.settings.anim === 'off' || document.hidden;
}

async function pump() {
  if (P.q.phase === 'showing') return;
  let latest = null; // the newest state a turn brought
  try {
    for (let turn = Q.next(P.q); turn; turn = Q.next(P.q)) {
      latest = turn.state;
      await animate(turn);
      const cut = Q.shown(P.q);
      if (cut) {
        P.last = null;
        Q.next(P.q);
        showState(cut);
        break;
      }
      P.active = null;
      P.hand = 0;
      const done = !P.q.queue.length;
      if (done) Q.next(P.q);
      showState(turn.state);
      if (done) { afterTurn(); break; }
    }
  } catch (e) {
    // A turn that could not be shown (a fault of the page's): show where
    // the game stands and go on, rather than stay stuck showing it.
    console.error('showing a turn:', e);
    const last = P.q.pending || P.q.queue.at(-1)?.state || latest;
    P.q.queue = [];
    P.q.pending = null;
    Q.next(P.q);
    P.active = null;
    P.hand = 0;
    if (last) showState(last);
  }
  anim.hideHand();
  invalidate();
}

async function animate(turn) {
  if (!turn.events || !turn.events.length) return;
  // Its own marks: a new game shown meanwhile forgets P.last, and this
  // turn, cut short, must not write into nothing.
  const last = { start: new Set(), path: new Set(), capture: new Set(), stop: null };
  P.last = last;
  tell({ type: 'turn', turn });
  const entry = logTurn(turn.ply, turn.player, turn.move);
  P.said.push(entry.title);
  let hand = 0;
  if (!quick()) { await frame(); anim.measure(); }
  for (const ev of turn.events) {
    const out = applyEvent(P.model, ev, playerName, hand, isYou, isAI());
    hand = out.hand;
    P.hand = hand;
    P.active = out.active;
    if (out.mark && out.active !== null) last[out.mark].add(out.active);
    if (ev.kind === 'stop') last.stop = ev.cell;
    if (out.message) {
      entry.items.push(out.message);
      if (important(ev.kind)) P.said.push(out.message);
    }
    if (ev.kind === 'end') sound.end(endFor(turn.state));
    invalidate();
    if (quick()) continue;
    await frame();
    if (quick()) continue;
    const ms = delayFor(ev.kind, S.settings.anim);
    const moved = anim.play(ev, hand, ms);
    if (ev.kind === 'drop') sound.drop();
    else if (ev.kind === 'capture') sound.capture(ev.stone);
    tell({ type: 'event', event: ev, moved });
    await pause(ms);
  }
  anim.hideHand();
}

// endFor: a win (true) or loss (false) for the person at this page
// (against the computer or a friend online), else undefined.
function endFor(st) {
  const w = st && st.result ? st.result.winner : null;
  if (me() === null || (w !== 0 && w !== 1)) return undefined;
  return w === me();
}

function afterTurn() {
  const parts = P.said;
  P.said = [];
  Q.settle(P.q, P.state);
  announce([...parts.map((say) => say()), statusText()].join(' '));
  tell({ type: 'done' });
}

// The turn log ------------------------------------------------------------

// logTurn returns the log entry of the turn played at ply, made if new;
// an entry of another move at that ply (taken back, then another played)
// is dropped. Each entry has a key of its own, never reused: the view
// keeps a row for an entry, never for a ply, so that no row of another
// game or of a move taken back survives.
let keys = 0;

function logTurn(ply, player, move) {
  let e = P.turns.find((x) => x.ply === ply);
  if (e && (e.move !== move || e.player !== player)) {
    P.turns = P.turns.filter((x) => x !== e);
    e = null;
  }
  if (!e) {
    e = { key: ++keys, ply, player, move, title: playText(player, move), items: [] };
    P.turns.push(e);
    P.turns.sort((a, b) => a.ply - b.ply);
  }
  return e;
}

// syncLog makes the log agree with state's moves (after a reload, a
// missed turn, an undo).
function syncLog(st) {
  const n = st.moves.length;
  const base = st.ply - n;
  P.turns = P.turns.filter((e) => e.ply < st.ply);
  st.moves.forEach((m, i) => logTurn(base + i, moverOf(st, i), m));
}
