// The board and the buttons by it: choosing and sowing (click, keys),
// undo, hint, skip, copy, level, animation, sound; and what follows what
// the pipeline shows (the choice dropped, the ending, the focus).

import { t } from './i18n.js';
import { createBoard, cellEl, cellOf } from './board.js';
import { keyAction, ownKey } from './keys.js';
import { api } from './api.js';
import { APIError } from './errors.js';
import { S, saveSettings, isAI, flipped, legalSet, legalCells, moveFor, game, snapshot } from './state.js';
import { board, invalidate, flush, note, announce, statusText } from './view.js';
import { $ } from './dom.js';
import { replace, receive, sending, skip, observe } from './turns.js';
import * as sound from './sound.js';
import { fail, refresh, onlineShown } from './game.js';
import { openResult, replayStep } from './replay.js';

// init draws the board and wires it and the buttons.
export function init() {
  createBoard(board, true);
  board.addEventListener('click', (e) => {
    const arrow = e.target.closest('.arrow');
    if (arrow) { sow(S.selected, arrow.dataset.dir); return; }
    const cell = e.target.closest('button.cell');
    if (cell) select(Number(cell.dataset.cell));
  });
  document.addEventListener('keydown', onKey);
  // Sound may start only after a gesture.
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, () => sound.unlock(), { once: true, capture: true });
  $('anim').onchange = (e) => { S.settings.anim = e.target.value; saveSettings(); };
  $('level').onchange = async (e) => {
    S.settings.level = e.target.value;
    saveSettings();
    if (game() && isAI() && !S.watching) {
      try { receive({ type: 'state', state: await api.level(game().id, S.settings.level) }); } catch (err) { fail(err); }
    }
  };
  $('sound').onclick = () => {
    S.settings.sound = !S.settings.sound;
    saveSettings();
    sound.setSound(S.settings.sound);
    sound.unlock();
    if (S.settings.sound) sound.drop();
    invalidate();
  };
  $('undo').onclick = undo;
  $('hint').onclick = hint;
  $('skip').onclick = skip;
  $('copy-position').onclick = () => copy('position');
  $('copy-record').onclick = () => copy('record');
  sound.setSound(S.settings.sound);
  observe(shown);
}

function select(c) {
  if (!legalCells().has(c)) return;
  S.selected = c;
  S.hinted = null;
  S.alert = null;
  invalidate();
  flush();
}

async function sow(c, dir) {
  const move = moveFor(c, dir);
  if (!legalSet().has(move)) return;
  S.focusAfter = c;
  sending(true);
  S.selected = null;
  S.pending = { cell: c, dir, retrying: false };
  S.alert = null;
  cellEl(board, c).focus({ preventScroll: true });
  note(null);
  invalidate();
  flush();
  const { id, ply } = game();
  // Sent again until answered: a move whose answer a dropped connection
  // lost is played once (docs/API.md). The board shows it pending.
  const waiting = (on) => {
    if (!S.pending || S.pending.retrying === on) return;
    S.pending.retrying = on;
    if (on) announce(t('status.resending'));
    invalidate();
  };
  try {
    const turn = await api.resend(id, move, ply, waiting, () => game()?.id !== id);
    if (game()?.id !== id) return; // another game is shown now: it forgot this move
    S.pending = null;
    sending(false);
    receive({ type: 'turn', turn }); // the socket may have brought it first
  } catch (e) {
    if (game()?.id !== id) return;
    S.pending = null;
    sending(false);
    if (e instanceof APIError && e.state) receive({ type: 'state', state: e.state });
    fail(e);
    refresh();
  }
}

async function undo() {
  // Not while a move is on its way or shown: an undo then would be
  // undone by the move sent again, or take back what is not yet seen.
  if (!game() || snapshot().phase !== 'idle') return;
  try {
    const st = await api.undo(game().id);
    S.selected = null;
    replace(st);
    note(null);
  } catch (e) {
    if (e instanceof APIError && e.code === 'conflict') { S.alert = () => t('undo.none'); announce(t('undo.none')); invalidate(); } else fail(e);
  }
}

async function hint() {
  if (!game()) return;
  try {
    const { hints } = await api.hints(game().id);
    if (!hints || !hints.length || !legalSet().has(hints[0].move)) { S.alert = () => t('hint.none'); announce(t('hint.none')); invalidate(); return; }
    const move = hints[0].move;
    const c = cellOf(parseInt(move, 10));
    S.selected = c;
    S.hinted = move;
    S.alert = null;
    invalidate();
    flush();
    announce(statusText()); // the status says the hint, at the board
    cellEl(board, c).focus();
  } catch (e) { fail(e); }
}

async function copy(kind) {
  if (!game()) return;
  let text = game().position;
  try {
    if (kind === 'record') text = await api.record(game().id);
  } catch (e) { fail(e); return; }
  const out = $('copy-out');
  try {
    await navigator.clipboard.writeText(text);
    out.hidden = true;
    const key = kind === 'record' ? 'copy.record' : 'copy.position';
    note(() => t(key));
    announce(t(key));
  } catch {
    note(() => t('copy.failed'));
    out.value = text;
    out.hidden = false;
    out.focus();
    out.select();
  }
}


function onKey(e) {
  if (!ownKey(e) || !$('howto-view').hidden || document.querySelector('dialog[open]')) return;
  if ((game()?.over || (S.replay && S.replay.record)) && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
    e.preventDefault();
    replayStep(e.key === 'ArrowLeft' ? -1 : 1);
    return;
  }
  const focused = document.activeElement?.closest?.('#game-board button.cell');
  const act = keyAction(e.key, S.selected, legalCells(), flipped(), focused ? Number(focused.dataset.cell) : null);
  if (!act) return;
  e.preventDefault();
  if (act.select !== undefined) {
    select(act.select);
    cellEl(board, act.select).focus();
  } else if (act.sow) {
    sow(S.selected, act.sow);
  } else if (act.cancel) {
    const c = S.selected;
    S.selected = null;
    S.hinted = null;
    invalidate();
    flush();
    cellEl(board, c)?.focus();
  }
}

// agreed lists the endings agreed by the players rather than played on
// the board: the state, not a turn, ends the game.
const agreed = new Set(['resign', 'abort', 'draw', 'timeout', 'abandon']);

// shown answers what the pipeline shows: a turn starting drops the
// choice; a state may end the game or lead to the rematch; the last turn
// shown opens the ending, or gives the focus back to the board.
function shown(msg) {
  if (msg.type === 'turn') Object.assign(S, { selected: null, hinted: null, pending: null });
  else if (msg.type === 'state') shownState(msg.state);
  else if (msg.type === 'done') shownTurns();
}

function shownState(st) {
  if (S.selected !== null && !(st.legal || []).length) S.selected = null;
  if (!st.over && S.shownEnd === st.id) S.shownEnd = null; // taken back
  if (onlineShown()?.follow(st)) return;
  if (st.over && agreed.has(st.end) && st.id !== S.shownEnd) {
    S.shownEnd = st.id;
    openResult();
  }
}

function shownTurns() {
  const st = game();
  if (st && st.over) { if (S.shownEnd !== st.id) S.shownEnd = st.id, openResult(); return; } // once a game
  if (st && legalCells().size && S.focusAfter !== undefined) {
    const b = cellEl(board, S.focusAfter);
    if (b && (document.activeElement === document.body || document.activeElement === board)) b.focus({ preventScroll: true });
  }
}

