// The page's controller: receiving states and turns (animated one event at
// a time), the player's actions, the settings, keyboard input, the views
// and the language. It shows what the server reports and never decides a
// rule: legal moves come in state.legal, turns come as event lists. The
// state it keeps is in state.js, the drawing in view.js.

import { LANGS, preferred, setLang, t, currentLang } from './i18n.js';
import { createBoard, cellEl, squareOf, cellOf } from './board.js';
import { loadHowto } from './howto.js';
import { keyAction, ownKey } from './keys.js';
import { askDialog } from './dialog.js';
import { api, Live, APIError } from './api.js';
import { modelOf, applyEvent, delayFor, important } from './play.js';
import { S, saveSettings, isAI, human, playerName, isYou, playText, legalSet, legalCells, moveFor, screenDir } from './state.js';
import { $, board, render, statusText, renderMoves, renderResult, log, renderLog, announce } from './view.js';

const GAME_KEY = 'oanquan.game';

// Showing states and turns -------------------------------------------------

function showState(state) {
  S.news++;
  S.state = state;
  S.model = modelOf(state);
  S.thinking = state.thinking;
  S.expectPly = Math.max(S.expectPly, state.ply);
  if (S.selected !== null && !legalCells().has(S.selected)) S.selected = null;
  render();
  renderMoves();
  renderResult();
}

function receiveTurn(turn) {
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

function receiveState(state) {
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

function pause(ms) {
  if (!ms || S.skipping) return Promise.resolve();
  return new Promise((resolve) => {
    const id = setTimeout(done, ms);
    function done() { clearTimeout(id); S.wake = null; resolve(); }
    S.wake = done;
  });
}

async function pump() {
  if (S.animating) return;
  S.animating = true;
  while (S.queue.length) {
    const turn = S.queue.shift();
    await animate(turn);
    S.skipping = false;
    if (S.pending) { const st = S.pending; S.pending = null; S.last = null; S.queue = []; S.expectPly = st.ply; S.animating = false; showState(st); S.animating = true; continue; }
    S.active = null;
    S.hand = 0;
    const last = S.queue.length === 0;
    if (last) S.animating = false;
    showState(turn.state);
    if (last) afterTurn(turn);
  }
  S.animating = false;
  render();
}

async function animate(turn) {
  if (!turn.events || !turn.events.length) return;
  const speed = S.settings.anim;
  S.last = { start: new Set(), path: new Set(), capture: new Set() };
  S.selected = null;
  S.hinted = null;
  const said = [playText(turn.player, turn.move)];
  log(said[0], true);
  render();
  let hand = 0;
  for (const ev of turn.events) {
    const out = applyEvent(S.model, ev, playerName, hand, isYou, isAI());
    hand = out.hand;
    S.active = out.active;
    S.hand = hand;
    if (out.mark && out.active !== null) S.last[out.mark].add(out.active);
    if (out.message) {
      log(out.message);
      if (important(ev.kind)) said.push(out.message);
    }
    if (!S.skipping) render();
    await pause(delayFor(ev.kind, speed));
  }
  S.said = (S.said || []).concat(said); // spoken with any turn queued after it
}

function afterTurn() {
  const parts = S.said || [];
  S.said = null;
  announce([...parts.map((say) => say()), statusText()].join(' '));
  if (S.state && !S.state.over && legalCells().size && S.focusAfter !== undefined) {
    const b = cellEl(board, S.focusAfter);
    if (b && document.activeElement === document.body) b.focus();
  }
}

// Actions --------------------------------------------------------------------

function select(c) {
  if (!legalCells().has(c)) return;
  S.selected = c;
  S.hinted = null;
  render();
}

async function sow(c, dir) {
  const move = moveFor(c, dir);
  if (!legalSet().has(move)) return;
  S.focusAfter = c;
  S.busy = true;
  S.selected = null;
  cellEl(board, c).focus();
  render();
  try {
    const turn = await api.move(S.state.id, move, S.state.ply);
    S.busy = false;
    receiveTurn(turn);
    if (!S.animating) render(); // the socket may have brought the turn first
  } catch (e) {
    S.busy = false;
    fail(e);
    refresh();
  }
}

function fail(e) {
  const say = e instanceof APIError && e.code === 'illegal_move' ? () => t('error.illegal') : () => t('error.generic', { message: e.message });
  log(say);
  announce(say());
  render();
}

async function refresh() {
  if (!S.state) return;
  try {
    const fresh = await fetchState(S.state.id);
    if (fresh) receiveState(fresh);
  } catch { /* the next poll retries */ }
}

// fetchState asks the server for the game's state, for poll and refresh.
// It returns null when a state or a turn arrived while the request was
// out: that news is at least as fresh, and an older answer shown after it
// would look like an undo.
async function fetchState(id) {
  const news = S.news;
  const fresh = await api.get(id);
  return S.news === news ? fresh : null;
}

function setGame(state) {
  if (S.live) S.live.close();
  S.queue = [];
  S.last = null;
  S.selected = null;
  S.hinted = null;
  S.expectPly = state.ply;
  S.state = null;
  if (S.animating) { S.skipping = true; if (S.wake) S.wake(); S.pending = state; }
  showState(state);
  log('', true);
  $('copy-out').hidden = true;
  try { localStorage.setItem(GAME_KEY, state.id); } catch { /* storage off */ }
  S.live = new Live(state.id, (msg) => {
    if (msg.type === 'turn') receiveTurn(msg.turn);
    else if (msg.type === 'state') receiveState(msg.state);
    else if (msg.type === 'thinking') { S.thinking = msg.thinking; if (!S.animating) render(); }
  });
  syncControls();
}

async function newGame() {
  const s = S.settings;
  try {
    setGame(await api.create({ mode: s.mode, level: s.level, human: 0, first: Number(s.first), variants: s.variants }));
  } catch (e) { fail(e); }
}

// poll stands in for the WebSocket while it is down: it fetches the state
// when the computer owes a move.
function poll() {
  const st = S.state;
  if (st && S.live && !S.live.open && !S.animating && !st.over && (st.thinking || (isAI() && st.toMove !== human()))) {
    fetchState(st.id).then((fresh) => {
      if (!fresh) return;
      if (fresh.ply > S.expectPly && fresh.moves.length) log(playText(st.toMove, fresh.moves[fresh.moves.length - 1]), true);
      receiveState(fresh);
    }).catch(() => {});
  }
}

async function undo() {
  if (!S.state) return;
  try {
    const st = await api.undo(S.state.id);
    S.last = null;
    S.selected = null;
    S.queue = [];
    S.expectPly = st.ply;
    showState(st);
    log('', true);
  } catch (e) {
    if (e instanceof APIError && e.code === 'conflict') { log(() => t('undo.none')); announce(t('undo.none')); } else fail(e);
  }
}

async function hint() {
  if (!S.state) return;
  try {
    const { hints } = await api.hints(S.state.id);
    if (!hints || !hints.length || !legalSet().has(hints[0].move)) { log(() => t('hint.none')); return; }
    const move = hints[0].move;
    const c = cellOf(parseInt(move, 10));
    S.selected = c;
    S.hinted = move;
    render();
    const say = () => t('hint.msg', { move, square: squareOf(c), arrow: screenDir(move) === 'left' ? '◀' : '▶' });
    log(say, true);
    announce(say());
    cellEl(board, c).focus();
  } catch (e) { fail(e); }
}

async function copy(kind) {
  if (!S.state) return;
  let text = S.state.position;
  try {
    if (kind === 'record') text = await api.record(S.state.id);
  } catch (e) { fail(e); return; }
  const out = $('copy-out');
  try {
    await navigator.clipboard.writeText(text);
    out.hidden = true;
    const key = kind === 'record' ? 'copy.record' : 'copy.position';
    log(() => t(key));
    announce(t(key));
  } catch {
    log(() => t('copy.failed'));
    out.value = text;
    out.hidden = false;
    out.focus();
    out.select();
  }
}

function skip() {
  if (!S.animating) return;
  S.skipping = true;
  if (S.wake) S.wake();
}

// Settings -------------------------------------------------------------------

function syncControls() {
  const s = S.settings;
  $('mode').value = s.mode;
  $('level').value = s.level;
  $('first').value = String(s.first);
  $('anim').value = s.anim;
  $('level-field').hidden = s.mode !== 'ai';
  for (const box of document.querySelectorAll('input[name=variant]')) box.checked = s.variants.includes(box.value);
  const opts = $('first').options;
  opts[0].textContent = t(s.mode === 'ai' ? 'player.you' : 'player.p1');
  opts[1].textContent = t(s.mode === 'ai' ? 'player.computer' : 'player.p2');
}

function inProgress() {
  return S.state && !S.state.over && S.state.moves.length > 0;
}

function wireSettings() {
  $('mode').onchange = (e) => { S.settings.mode = e.target.value; saveSettings(); syncControls(); newGame(); };
  $('first').onchange = (e) => { S.settings.first = Number(e.target.value); saveSettings(); newGame(); };
  $('anim').onchange = (e) => { S.settings.anim = e.target.value; saveSettings(); };
  $('level').onchange = async (e) => {
    S.settings.level = e.target.value;
    saveSettings();
    if (S.state && isAI()) {
      try { receiveState(await api.level(S.state.id, S.settings.level)); } catch (err) { fail(err); }
    }
  };
  for (const box of document.querySelectorAll('input[name=variant]')) {
    box.onchange = async () => {
      if (inProgress() && !(await askDialog($('confirm'), $('confirm-yes'), $('confirm-no')))) { syncControls(); return; }
      S.settings.variants = [...document.querySelectorAll('input[name=variant]:checked')].map((b) => b.value);
      saveSettings();
      newGame();
    };
  }
  $('new').onclick = newGame;
  $('result-new').onclick = newGame;
  $('undo').onclick = undo;
  $('hint').onclick = hint;
  $('skip').onclick = skip;
  $('copy-position').onclick = () => copy('position');
  $('copy-record').onclick = () => copy('record');
}

// Board input ------------------------------------------------------------------

function wireBoard() {
  createBoard(board, true);
  board.addEventListener('click', (e) => {
    const arrow = e.target.closest('.arrow');
    if (arrow) { sow(S.selected, arrow.dataset.dir); return; }
    const cell = e.target.closest('button.cell');
    if (cell) select(Number(cell.dataset.cell));
  });
  document.addEventListener('keydown', onKey);
}

function onKey(e) {
  if (!ownKey(e) || !$('howto-view').hidden || $('confirm').open) return;
  const act = keyAction(e.key, S.selected, legalCells());
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
    render();
    cellEl(board, c)?.focus();
  }
}

// Views and language ---------------------------------------------------------------

async function route() {
  const howto = location.hash === '#howto';
  const wasHowto = !$('howto-view').hidden;
  $('game-view').hidden = howto;
  $('howto-view').hidden = !howto;
  if (howto) {
    await showHowto();
    $('howto-heading').focus();
  } else if (wasHowto) {
    $('nav-howto').focus(); // back where the reader left the game
  }
}

let howtoLang = null; // the language of the fragment shown

async function showHowto() {
  const lang = currentLang();
  if (howtoLang === lang) return;
  howtoLang = lang;
  await loadHowto($('howto-body'), lang);
}

async function changeLang(code) {
  await setLang(code);
  syncControls();
  render();
  renderMoves();
  renderResult();
  renderLog();
  if (!$('howto-view').hidden) await showHowto();
  else howtoLang = null;
}

async function start() {
  // Show the right view at once, before anything loads.
  $('game-view').hidden = location.hash === '#howto';
  $('howto-view').hidden = location.hash !== '#howto';
  const sel = $('lang');
  for (const [code, name] of LANGS) {
    if (sel.querySelector(`option[value="${code}"]`)) continue;
    const o = document.createElement('option');
    o.value = code;
    o.lang = code;
    o.textContent = name;
    sel.append(o);
  }
  const lang = preferred();
  sel.value = lang;
  sel.onchange = () => changeLang(sel.value);
  await setLang(lang);
  wireBoard();
  wireSettings();
  syncControls();
  render();
  window.addEventListener('hashchange', route);
  route();
  setInterval(poll, 700);
  openGame();
}

// openGame resumes the game this browser played last, or starts one; it
// keeps trying while the server cannot be reached.
async function openGame() {
  let saved = null;
  try { saved = localStorage.getItem(GAME_KEY); } catch { /* storage off */ }
  if (saved) {
    try {
      const st = await api.get(saved);
      Object.assign(S.settings, { mode: st.mode, level: st.level || S.settings.level, variants: st.variants || [] });
      if (st.first === 0 || st.first === 1) S.settings.first = st.first;
      setGame(st);
      return;
    } catch (e) {
      if (!(e instanceof APIError)) { offline(); return; } // else gone: start afresh
    }
  }
  const s = S.settings;
  try {
    setGame(await api.create({ mode: s.mode, level: s.level, human: 0, first: Number(s.first), variants: s.variants }));
  } catch (e) {
    if (e instanceof APIError) fail(e);
    else offline();
  }
}

function offline() {
  $('status').textContent = t('status.offline');
  setTimeout(openGame, 3000);
}

start();
