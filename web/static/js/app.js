// The page: settings, the board, moves, the live connection and the
// how-to-play view. It shows what the server reports and never decides a
// rule: legal moves come in state.legal, turns come as event lists.

import { LANGS, preferred, setLang, t, num, currentLang } from './i18n.js';
import { createBoard, updateBoard, renderStore, cellEl, squareOf, cellOf, ownerOf } from './board.js';
import { renderTallies, winnerText } from './result.js';
import { loadHowto } from './howto.js';
import { keyAction, ownKey } from './keys.js';
import { askDialog } from './dialog.js';
import { api, Live, APIError } from './api.js';
import { modelOf, applyEvent, delayFor, important } from './play.js';

const $ = (id) => document.getElementById(id);
const SETTINGS_KEY = 'oanquan.settings';
const GAME_KEY = 'oanquan.game';

const S = {
  state: null, // the state on screen (after any animation in progress)
  model: null, // cells, stones and stores on screen
  queue: [], // turns waiting to be shown
  expectPly: 0, // ply of the last state shown or queued
  animating: false,
  skipping: false,
  wake: null, // ends the current pause early
  selected: null, // selected cell
  hinted: null, // the hinted move
  busy: false, // a request is in flight
  thinking: false,
  last: null, // last move: {start, path, capture} sets of cells
  logItems: [], // this turn's messages, as functions (see log)
  active: null,
  hand: 0,
  live: null,
  news: 0, // counts states and turns received or shown: see fetchState
  settings: loadSettings(),
};

function loadSettings() {
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const def = { mode: 'ai', level: 'easy', first: 0, anim: reduce ? 'off' : 'normal', variants: [] };
  try { return { ...def, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}') }; } catch { return def; }
}

function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { /* storage off */ }
}

// Names ----------------------------------------------------------------

function isAI() { return S.state && S.state.mode === 'ai'; }
function human() { return S.state ? S.state.human : 0; }

function playerName(p) {
  if (isAI()) return t(p === human() ? 'player.you' : 'player.computer');
  return t(p === 0 ? 'player.p1' : 'player.p2');
}

function isYou(p) { return isAI() && p === human(); }

// playText returns a function that says "p plays move".
function playText(p, move) {
  return () => (isYou(p) ? t('msg.youPlay', { move }) : t('msg.play', { name: playerName(p), move }));
}

function ownerWord(c) {
  const p = ownerOf(c);
  if (isAI()) return t(p === human() ? 'owner.yours' : 'owner.computer');
  return t(p === 0 ? 'owner.p1' : 'owner.p2');
}

// Legal moves and directions ---------------------------------------------

function legalSet() {
  if (!S.state || S.animating || S.busy || S.queue.length) return new Set();
  return new Set(S.state.legal || []);
}

function legalCells() {
  const cells = new Set();
  for (const m of legalSet()) cells.add(cellOf(parseInt(m, 10)));
  return cells;
}

// moveFor turns a screen direction into a move. "R" runs toward higher
// numbers: rightward on the bottom row, leftward on the top row.
function moveFor(c, screen) {
  const bottom = c > 5;
  const letter = (screen === 'right') === bottom ? 'R' : 'L';
  return `${squareOf(c)}${letter}`;
}

function screenDir(move) {
  const c = cellOf(parseInt(move, 10));
  return move.endsWith('R') === c > 5 ? 'right' : 'left';
}

// Rendering --------------------------------------------------------------

const board = $('game-board');
const arrows = document.createElement('div');
arrows.className = 'arrows';
arrows.innerHTML = '<button type="button" class="arrow" data-dir="left">◀</button><button type="button" class="arrow" data-dir="right">▶</button>';

function classesFor(c) {
  const k = [];
  if (legalCells().has(c)) k.push('legal');
  if (S.selected === c) k.push('selected');
  if (S.active === c) k.push('active');
  if (S.last) {
    if (S.last.start.has(c)) k.push('last-start');
    if (S.last.path.has(c)) k.push('last-path');
    if (S.last.capture.has(c)) k.push('last-capture');
  }
  return k;
}

function render() {
  if (!S.model) return;
  updateBoard(board, S.model, { owner: ownerWord, classes: classesFor });
  const legal = legalCells();
  for (const b of board.querySelectorAll('button.cell')) {
    const c = Number(b.dataset.cell);
    const ok = legal.has(c);
    b.setAttribute('aria-disabled', ok ? 'false' : 'true');
    b.tabIndex = ok ? 0 : -1;
  }
  placeHand();
  const to = S.state ? S.state.toMove : 0;
  renderStore($('store-0'), S.model.stores[0], playerName(0), !S.animating && S.state && !S.state.over && to === 0);
  renderStore($('store-1'), S.model.stores[1], playerName(1), !S.animating && S.state && !S.state.over && to === 1);
  renderArrows();
  $('status').textContent = statusText();
  $('status').classList.toggle('thinking', !!(S.state && !S.animating && isAI() && !S.state.over && S.state.toMove !== human()));
  $('skip').disabled = !S.animating;
  $('undo').disabled = !canUndo() || S.animating;
  $('hint').disabled = legal.size === 0;
  board.classList.toggle('busy', S.animating);
}

// The hand: the pebbles being sown, carried from square to square.
const hand = document.createElement('div');
hand.className = 'hand';
hand.hidden = true;
hand.setAttribute('aria-hidden', 'true');

function placeHand() {
  if (!hand.parentNode) board.parentNode.append(hand);
  if (!S.animating || S.active === null || S.hand <= 0 || S.skipping || S.settings.anim === 'off') {
    hand.hidden = true;
    return;
  }
  const wrap = board.parentNode.getBoundingClientRect();
  const r = cellEl(board, S.active).getBoundingClientRect();
  const jump = hand.hidden; // appear in place, then glide
  if (jump) hand.style.transition = 'none';
  hand.style.setProperty('--hand-ms', S.settings.anim === 'fast' ? '60ms' : '200ms');
  hand.style.transform = `translate(${Math.round(r.left - wrap.left + r.width / 2)}px, ${Math.round(r.top - wrap.top)}px)`;
  hand.textContent = num(S.hand);
  hand.hidden = false;
  if (jump) {
    void hand.offsetWidth;
    hand.style.transition = '';
  }
}

function renderArrows() {
  const legal = legalSet();
  if (S.selected === null || !legal.size || !legalCells().has(S.selected)) {
    if (arrows.parentNode) {
      const had = arrows.contains(document.activeElement);
      arrows.remove();
      if (had && S.selected !== null) cellEl(board, S.selected)?.focus();
    }
    return;
  }
  const slot = cellEl(board, S.selected).parentNode;
  if (arrows.parentNode !== slot) slot.append(arrows);
  for (const b of arrows.querySelectorAll('button')) {
    const move = moveFor(S.selected, b.dataset.dir);
    b.hidden = !legal.has(move);
    b.setAttribute('aria-label', t(b.dataset.dir === 'left' ? 'sow.left' : 'sow.right'));
    b.title = `${t(b.dataset.dir === 'left' ? 'sow.left' : 'sow.right')} (${move})`;
    b.classList.toggle('hinted', S.hinted === move);
  }
}

// canUndo says whether there is a move to take back: against the computer,
// one of the human's.
function canUndo() {
  const st = S.state;
  if (!st || !st.moves.length) return false;
  if (!isAI()) return true;
  const n = st.moves.length;
  return st.moves.some((_, i) => (st.toMove + n - i) % 2 === human());
}

function statusText() {
  const st = S.state;
  if (!st) return t('status.connecting');
  if (S.animating) return S.hand > 0 ? `${t('status.sowing')} ${t('inHand', { n: S.hand })}` : t('status.sowing');
  if (st.over) return t('status.over');
  if (S.selected !== null && legalCells().has(S.selected)) return t('status.pickDirection', { square: squareOf(S.selected) });
  if (isAI()) {
    if (st.toMove === human()) return t('status.yourTurn');
    return t(S.thinking || st.thinking ? 'status.thinking' : 'status.computerTurn');
  }
  return t('status.playerTurn', { name: playerName(st.toMove) });
}

function renderMoves() {
  const ol = $('moves');
  ol.textContent = '';
  const st = S.state;
  if (!st || !st.moves.length) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = t('moves.empty');
    ol.append(li);
    return;
  }
  const n = st.moves.length;
  st.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = playerName((st.toMove + n - i) % 2);
    const mv = document.createElement('span');
    mv.className = 'mv';
    mv.textContent = m;
    li.append(who, ' ', mv);
    if (i === n - 1) li.setAttribute('aria-current', 'true');
    ol.append(li);
  });
  ol.scrollTop = ol.scrollHeight; // the list scrolls, never the page
}

function renderResult() {
  const st = S.state;
  const box = $('result');
  if (!st || !st.over || !st.result || S.animating || S.queue.length) {
    box.hidden = true;
    return;
  }
  renderTallies($('tallies'), st.result, playerName);
  $('winner').textContent = winnerText(st.result, isAI() ? human() : null, playerName);
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) $('result-heading').focus();
}

// log adds a message to this turn's list. A message is a function that
// says it in the current language, so the list follows a language switch.
function log(say, reset) {
  if (reset) S.logItems = [];
  if (say) S.logItems.push(typeof say === 'function' ? say : () => say);
  renderLog();
}

function renderLog() {
  const ol = $('messages');
  ol.textContent = '';
  for (const say of S.logItems) {
    const li = document.createElement('li');
    li.textContent = say();
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function announce(text) {
  const a = $('announce');
  a.textContent = '';
  // A fresh node makes screen readers speak even a repeated text.
  setTimeout(() => { a.textContent = text; }, 50);
}

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
