// The turn pipeline: states and turns (HTTP, WebSocket, polls) queue up
// and are shown event by event (model change, one batched redraw, motion,
// sound, pause), or at once when skipping, with animation off or the page
// hidden. It catches up on missed turns and drops stale news.

import { modelOf, applyEvent, delayFor, important } from './play.js';
import { S, isAI, me, playerName, isYou, playText, moverOf } from './state.js';
import { invalidate, frame, announce, statusText } from './view.js';
import * as anim from './anim.js';
import * as sound from './sound.js';

// hooks: what the controller does after a turn and on a new state.
export const hooks = { afterTurn: () => {}, onState: () => {} };

// showState puts state on screen at once.
export function showState(state) {
  S.news++;
  S.state = state;
  S.model = modelOf(state);
  S.snapshots.set(state.ply, modelOf(state));
  S.thinking = state.thinking;
  S.expectPly = Math.max(S.expectPly, state.ply);
  syncLog(state);
  if (S.selected !== null && !(state.legal || []).length) S.selected = null;
  invalidate();
  hooks.onState(state);
}

// receiveTurn takes a turn from the server (docs/API.md).
export function receiveTurn(turn) {
  S.news++;
  if (!S.state || turn.state.id !== S.state.id) return;
  if (turn.ply < S.expectPly) return; // already shown
  if (turn.ply > S.expectPly) { // missed some: show where the game is
    S.expectPly = turn.state.ply;
    if (!S.animating) showState(turn.state);
    else S.queue.push({ state: turn.state, events: [] });
    return;
  }
  S.expectPly = turn.state.ply;
  S.queue.push(turn);
  pump();
}

// receiveState takes a state that may replace what is shown (an undo, a
// level change, a reconnection).
export function receiveState(state) {
  S.news++;
  if (!S.state || state.id !== S.state.id) return;
  if (S.animating || S.queue.length) {
    if (state.ply === S.expectPly) { S.thinking = state.thinking; return; }
    S.queue = [];
    S.skipping = true;
    if (S.wake) S.wake();
    S.pending = state;
    return;
  }
  if (state.ply < S.expectPly) S.last = null; // an undo
  S.expectPly = state.ply;
  showState(state);
}

// resetTurns forgets everything shown, for a new game on screen.
export function resetTurns(state) {
  S.queue = [];
  S.last = null;
  S.selected = null;
  S.hinted = null;
  S.turns = [];
  S.replay = null;
  S.snapshots = new Map();
  S.skipReplies = false;
  S.expectPly = state.ply;
  S.state = null;
  if (S.animating) { S.skipping = true; if (S.wake) S.wake(); S.pending = state; }
  anim.hideHand();
}

// skip finishes the turn shown and the computer's reply: everything up to
// the next move a person makes.
export function skip() {
  if (!S.animating && !S.busy && !(S.state && S.state.thinking)) return;
  S.skipping = true;
  S.skipReplies = true;
  if (S.wake) S.wake();
  invalidate();
}

function pause(ms) {
  if (!ms || quick()) return Promise.resolve();
  return new Promise((resolve) => {
    const id = setTimeout(done, ms);
    function done() { clearTimeout(id); S.wake = null; resolve(); }
    S.wake = done;
  });
}

// quick says whether events are shown without motion.
function quick() {
  return S.skipping || S.skipReplies || S.settings.anim === 'off' || document.hidden;
}

async function pump() {
  if (S.animating) return;
  S.animating = true;
  while (S.queue.length) {
    const turn = S.queue.shift();
    await animate(turn);
    S.skipping = false;
    if (S.pending) {
      const st = S.pending;
      S.pending = null; S.last = null; S.queue = []; S.expectPly = st.ply;
      S.animating = false; showState(st); S.animating = true;
      continue;
    }
    S.active = null;
    S.hand = 0;
    const last = S.queue.length === 0;
    if (last) S.animating = false;
    showState(turn.state);
    if (last) afterTurn(turn);
  }
  S.animating = false;
  anim.hideHand();
  invalidate();
}

async function animate(turn) {
  if (!turn.events || !turn.events.length) return;
  S.last = { start: new Set(), path: new Set(), capture: new Set(), stop: null };
  S.selected = null;
  S.hinted = null;
  const entry = logTurn(turn.ply, turn.player, turn.move);
  const said = [entry.title];
  let hand = 0;
  if (!quick()) { await frame(); anim.measure(); }
  for (const ev of turn.events) {
    const out = applyEvent(S.model, ev, playerName, hand, isYou, isAI());
    hand = out.hand;
    S.active = out.active;
    S.hand = hand;
    if (out.mark && out.active !== null) S.last[out.mark].add(out.active);
    if (ev.kind === 'stop') S.last.stop = ev.cell;
    if (out.message) {
      entry.items.push(out.message);
      if (important(ev.kind)) said.push(out.message);
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
    record(ev, moved);
    await pause(ms);
  }
  anim.hideHand();
  S.said = (S.said || []).concat(said); // spoken with any turn queued after it
}

// endFor: a win (true) or loss (false) for the person at this page
// (against the computer or a friend online), else undefined.
function endFor(st) {
  const w = st && st.result ? st.result.winner : null;
  if (me() === null || (w !== 0 && w !== 1)) return undefined;
  return w === me();
}

// record adds the counts drawn and how many things moved to
// window.__trace, which only the browser tests create.
function record(ev, moved) {
  const tr = window.__trace;
  if (!Array.isArray(tr)) return;
  const counts = [...document.querySelectorAll('#game-board .cell .count')].map((e) => Number(e.dataset.v));
  const cells = [];
  document.querySelectorAll('#game-board .cell').forEach((e, i) => { cells[Number(e.dataset.cell)] = counts[i]; });
  tr.push({ kind: ev.kind, cell: ev.cell, cells, moved });
}

function afterTurn() {
  const parts = S.said || [];
  S.said = null;
  const st = S.state;
  if (st && (st.over || (st.legal || []).length)) S.skipReplies = false;
  announce([...parts.map((say) => say()), statusText()].join(' '));
  hooks.afterTurn();
}

// The turn log ------------------------------------------------------------

// logTurn returns the log entry of the turn played at ply, made if new.
export function logTurn(ply, player, move) {
  let e = S.turns.find((x) => x.ply === ply);
  if (!e) {
    e = { ply, player, move, title: playText(player, move), items: [] };
    S.turns.push(e);
    S.turns.sort((a, b) => a.ply - b.ply);
  }
  return e;
}

// syncLog makes the log agree with state's moves (after a reload, a
// missed turn, an undo).
function syncLog(st) {
  const n = st.moves.length;
  const base = st.ply - n;
  S.turns = S.turns.filter((e) => e.ply < st.ply);
  st.moves.forEach((m, i) => logTurn(base + i, moverOf(st, i), m));
}
