// The controller: actions (select, sow, undo, hint, skip, copy, replay),
// settings and dialogs, keys, views and language. It writes the page's
// state (S); the game and its turns go to the pipeline (turns.js) as
// messages; drawing is view.js's; no rule is decided here.

import { preferred, setLang, t, currentLang } from './i18n.js';
import { createBoard, cellEl, cellOf, parsePosition } from './board.js';
import { loadHowto } from './howto.js';
import { keyAction, ownKey } from './keys.js';
import { api, subscribe } from './api.js';
import { problem, APIError } from './errors.js';
import { secretOf, seatOf } from './secrets.js';
import { S, saveSettings, isAI, isOnline, me, flipped, playerName, legalSet, legalCells, moveFor } from './state.js';
import { board, invalidate, flush, note, relog, announce, statusText } from './view.js';
import { $ } from './dom.js';
import { show, replace, receive, sending, skip, observe } from './turns.js';
import { game, snapshot } from './shown.js';
import * as sound from './sound.js';

const GAME_KEY = 'oanquan.game';

// online is online.js once loaded: games between two people online need
// it, the first visit does not. review is review.js, loaded when a review
// is asked for.
let online = null;
let review = null;

async function loadReview() {
  if (!review) {
    const m = await import('./review.js');
    m.init({ go: replayTo, fail, close: closeReview, mark, record: replayRecord });
    review = m;
  }
  return review;
}

// startReview has the finished game reviewed, from its first position.
async function startReview() {
  try {
    const m = await loadReview();
    closeResult();
    S.reviewing = true;
    if (S.replay && S.replay.record) S.replay = null;
    m.start();
    replayTo(0);
  } catch (e) { fail(e); }
}

function closeReview() {
  S.reviewing = false;
  if (review) review.close();
  if (S.replay) replayTo(Infinity);
  invalidate();
  flush();
}

async function loadOnline() {
  if (!online) {
    const m = await import('./online.js');
    m.init({ open: openById, fail, note, show: (state) => receive({ type: 'state', state }) });
    online = m;
  }
  return online;
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

// fail tells the player, at the board, what went wrong and what to do,
// in their language (api.js problem), until they next act.
function fail(e) {
  const { key, n } = problem(e);
  if (key === 'watch.note') S.watching = true;
  S.alert = () => t(key, { n });
  announce(S.alert());
  invalidate();
}

async function refresh() {
  if (!game()) return;
  try {
    const fresh = await fetchState(game().id);
    if (fresh) receive({ type: 'state', state: fresh });
  } catch { /* the next poll retries */ }
}

// fetchState gets the game's state, or null when news arrived meanwhile
// (an older answer shown after it would look like an undo).
async function fetchState(id) {
  const { news } = snapshot();
  const fresh = await api.get(id);
  return snapshot().news === news ? fresh : null;
}

function setGame(state) {
  const before = game()?.id;
  if (S.feed) S.feed.close();
  closeResult();
  if (S.reviewing && !(review && review.active(state.id))) closeReview();
  Object.assign(S, { selected: null, hinted: null, pending: null, replay: null, alert: null, watching: !secretOf(state.id), seat: seatOf(state.id) });
  show(state);
  if (board.dataset.flipped !== String(flipped())) createBoard(board, true, flipped());
  $('table').classList.toggle('flipped', flipped());
  if (state.mode === 'online' && !online) loadOnline().catch(fail);
  const shown = new URLSearchParams(location.search).get('game'); // the address names a game: keep it this one
  if (shown && shown !== state.id) history.replaceState(null, '', `?game=${encodeURIComponent(state.id)}`);
  note(null);
  $('copy-out').hidden = true;
  try { localStorage.setItem(GAME_KEY, state.id); } catch { /* storage off */ }
  S.link = '';
  S.feed = subscribe(state.id, (msg) => (online && msg.type.startsWith('phrase') ? online.phrase(msg) : receive(msg, true)), linked, () => (game()?.id === state.id ? game().ply : -1));
  // Another game (a rematch, one from Your games): its board whole in
  // view, the other player's row too, however far down the page was.
  if (before && before !== state.id && $('table').getBoundingClientRect().top < 0) document.querySelector('.play').scrollIntoView({ block: 'start' });
  if (state.over) { S.shownEnd = state.id; openResult(false); }
}

// linked follows the game's feed going down and coming back (it says
// changes), down before it was ever up still connecting: in a game
// between two people online, the board says which.
function linked(up) {
  S.link = up ? 'up' : S.link === 'up' ? 'reconnecting' : 'connecting';
  invalidate();
}

// createOpts is the body of a new game's request, from the settings.
function createOpts() {
  const s = S.settings;
  let first = s.first === 'random' ? 'random' : Number(s.first) || 0;
  if (first === 'random' && s.mode !== 'online') first = 0;
  return { mode: s.mode, level: s.level, human: 0, first, variants: s.variants };
}

async function newGame(opts = {}) {
  try {
    // A game online needs the server: past ONLINE_WAIT without it (a server
    // killed mid-answer; a failed call handed to the engine in the browser,
    // slow to start, that can only refuse it) the failure is said, the
    // page's module and the game's creation within that one time.
    const online = S.settings.mode === 'online';
    const made = (online ? loadOnline() : Promise.resolve()).then(() => api.create({ ...createOpts(), ...opts }));
    setGame(await (online ? within(made, ONLINE_WAIT) : made));
  } catch (e) { fail(e); }
}

const ONLINE_WAIT = 8000; // ms

// within is promise p, or a failure past ms (problem says it as the
// server out of reach).
function within(p, ms) {
  return Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error('no answer in time')), ms))]);
}

// openById shows game id (from "Your games", a rematch), taking a seat
// in it if it is an online game with one free.
async function openById(id) {
  try {
    let st = await api.get(id);
    if (st.mode === 'online') st = await (await loadOnline()).openFromLink(st);
    setGame(st);
  } catch (e) { fail(e); }
}

// poll stands in for the WebSocket while it is down — not while it is
// first opening: a state polled then would show the computer's opening
// move as done, before the socket sends it as a turn to be shown played.
function poll() {
  const { state: st, phase } = snapshot();
  if (st && S.feed && !S.feed.open && /conn/.test(S.link) && phase !== 'showing' && !st.over && (st.thinking || (me() !== null && st.toMove !== me()) || S.watching)) {
    fetchState(st.id).then((fresh) => { if (fresh) receive({ type: 'state', state: fresh }); }).catch(() => {});
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


// ending is ending.js, loaded when a game ends (the first visit does
// without it); ends counts the dialog's closes, so that a dialog asked
// for before a close stays shut.
let ending = null;
let ends = 0;

function openResult(focus = true) {
  const st = game();
  if (!st || !st.over || !st.result || $('game-view').hidden) return; // not over a profile (account.js)
  const asked = ends;
  ending ||= import('./ending.js').catch((e) => { ending = null; throw e; });
  ending.then((m) => { if (asked === ends) m.showEnding(focus); }, fail);
}

function closeResult() {
  ends++;
  if ($('result').open) $('result').close();
}

// Replay: ←/→ go through a finished game's positions.

// positions lists the finished game's positions: from the server when its
// state gives them (positions, in the notation), else those this page saw.
function positions() {
  const { state, snapshots } = snapshot();
  if (Array.isArray(state.positions) && state.positions.length > 1) return state.positions.map(parsePosition).filter(Boolean);
  return [...snapshots.keys()].sort((a, b) => a - b).map((ply) => ({ ply, model: snapshots.get(ply) }));
}

function replayStep(step) {
  if (S.replay) { replayTo(S.replay.index + step); return; }
  if (step > 0 || !game()?.over) return;
  replayTo(positions().length - 1 + step); // from the final position
}

// replayTo shows position index of the finished game (clamped; the last
// is the final position, which ends the replay unless a review is open).
function replayTo(index) {
  const { state: st, phase } = snapshot();
  const record = S.replay && S.replay.record; // a pasted record's review
  if (!record && (!st || !st.over || phase === 'showing')) return;
  if (!S.replay) {
    const plies = positions();
    if (plies.length < 2) return;
    S.replay = { plies, index: plies.length - 1 };
  }
  const r = S.replay;
  r.index = Math.max(0, Math.min(r.plies.length - 1, index));
  r.model = r.plies[r.index].model;
  r.marks = null;
  if (r.index === r.plies.length - 1 && !S.reviewing) S.replay = null;
  if (S.reviewing && review) review.show();
  invalidate();
  if (S.reviewing && review) announce(`${statusText()} ${review.say(r.index)}`);
  else announce(S.replay ? statusText() : t('replay.end'));
}

// mark has the board mark the review's squares at the position shown.
function mark() {
  if (S.replay && review) S.replay.marks = review.marksAt(S.replay.index);
  invalidate();
}

// replayRecord shows a pasted record's positions for its review, from
// the first: plies fills as the review goes on; total is its length.
function replayRecord(plies, total) {
  S.reviewing = true;
  S.replay = { record: true, plies, index: 0, total, model: plies[0].model };
  replayTo(0);
}


function fillNewGame() {
  const s = S.settings;
  const f = $('newgame-form');
  f.elements.mode.value = s.mode === 'online' && !navigator.onLine ? 'ai' : s.mode;
  f.elements.level.value = s.level;
  f.elements.first.value = String(s.first);
  for (const box of f.querySelectorAll('input[name=variant]')) box.checked = s.variants.includes(box.value);
  if (online) online.fillClock(f, s.clock);
  syncNewGame();
}

function syncNewGame() {
  const f = $('newgame-form');
  const mode = f.elements.mode.value || 'ai';
  $('newgame-level').hidden = mode !== 'ai';
  $('first-0').textContent = t(mode === 'local' ? 'player.p1' : 'player.you');
  $('first-1').textContent = t({ ai: 'player.computer', local: 'player.p2', online: 'player.friend' }[mode]);
  $('first-random').hidden = mode !== 'online';
  // Playing a friend online needs the server: not offered offline.
  const off = !navigator.onLine;
  f.querySelector('input[name=mode][value=online]').disabled = off;
  $('online-needs').hidden = !off;
  if (mode !== 'online' && f.elements.first.value === 'random') f.elements.first.value = '0';
  if (online) online.syncClock(f, mode === 'online');
  else if (mode === 'online') loadOnline().then((m) => { m.fillClock(f, S.settings.clock); syncNewGame(); }, fail);
}

async function openNewGame() {
  closeResult();
  if (S.settings.mode === 'online') await loadOnline().catch(() => {}); // its clock at once
  fillNewGame();
  const dlg = $('newgame');
  dlg.returnValue = '';
  dlg.showModal();
  $('newgame-start').focus(); // the settings start as they were: Enter starts
}

function wireSettings() {
  const f = $('newgame-form');
  f.addEventListener('change', syncNewGame);
  // 'made': online.js made it (a clock), shows it.
  $('newgame').addEventListener('close', () => {
    const how = $('newgame').returnValue;
    if (!/^(start|made)$/.test(how)) return;
    S.settings.mode = f.elements.mode.value;
    S.settings.level = f.elements.level.value;
    S.settings.first = f.elements.first.value === 'random' ? 'random' : Number(f.elements.first.value);
    S.settings.variants = [...f.querySelectorAll('input[name=variant]:checked')].map((b) => b.value);
    if (online) S.settings.clock = online.readClock(f);
    saveSettings();
    if (how === 'start') newGame();
  });
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
  $('new').onclick = openNewGame;
  $('result-new').onclick = openNewGame;
  $('result-rematch').onclick = () => {
    if (isOnline()) { if (online) online.rematch(); return; }
    closeResult();
    newGame({ first: game() ? 1 - game().first : 0 });
  };
  $('nav-games').onclick = async () => { try { (await loadOnline()).showGames(); } catch (e) { fail(e); } };
  $('result-close').onclick = () => { closeResult(); board.focus(); };
  $('result-open').onclick = () => openResult();
  $('result-review').onclick = startReview;
  $('replay-review').onclick = startReview;
  $('review-record').onclick = async () => { try { (await loadReview()).openRecord(); } catch (e) { fail(e); } };
  $('undo').onclick = undo;
  $('hint').onclick = hint;
  $('skip').onclick = skip;
  $('copy-position').onclick = () => copy('position');
  $('copy-record').onclick = () => copy('record');
  for (const b of $('replay-bar').querySelectorAll('[data-step]')) b.onclick = () => replayStep(Number(b.dataset.step));
}


function wireBoard() {
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
  if (online && online.follow(st)) return;
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


// lobby is lobby.js once the lobby (#lobby) has been visited.
let lobby = null;

// account.js, on demand: accounts (the header's button, showing the name
// last signed in), profiles (/@/NAME) and leaderboards (/leaderboard).
let account = null;
const accountPage = () => /^\/(@\/|leaderboard)/.test(location.pathname);
const loadAccount = async () => account ||= await import('./account.js').then((m) => { m.init({ open: openById, fail, board: boardShown }); return m; });
// lazy: a first visit at such an address starts no computer game until
// the board is shown (boardShown(), from account.js).
let lazy = false;
const boardShown = () => { if (lazy && !new URLSearchParams(location.search).get('game')) openGame(); lazy = false; };

function wireAccount() {
  const b = $('nav-account');
  let name = null;
  try { name = localStorage.getItem('oanquan.me'); } catch { /* storage off */ }
  if (name) b.removeAttribute('data-i18n-label'), b.setAttribute('aria-label', name), b.lastChild.removeAttribute('data-i18n'), b.lastChild.textContent = name;
  b.onclick = () => loadAccount().then((m) => m.openMenu(), fail);
  if (accountPage()) {
    $('game-view').hidden = true;
    document.head.prepend(Object.assign(document.createElement('base'), { href: '/' })); // for relative addresses
    loadAccount().catch(fail);
  }
}


async function route() {
  const view = { '#howto': 'howto', '#lobby': 'lobby' }[location.hash] || 'game';
  const wasHowto = !$('howto-view').hidden;
  $('game-view').hidden = view !== 'game' || accountPage();
  $('howto-view').hidden = view !== 'howto';
  if (view !== 'game') {
    closeResult();
    for (const d of document.querySelectorAll('dialog[open]')) d.close();
  }
  if (view === 'lobby' || lobby) {
    try {
      lobby ||= await import('./lobby.js');
      lobby.show(view === 'lobby', { open: play, fail });
    } catch (e) { play(null); fail(e); }
  }
  if (view === 'howto') {
    await showHowto();
    $('howto-heading').focus();
  } else if (wasHowto && view === 'game') {
    $('nav-howto').focus(); // back where the reader left the game
  }
}

// play leaves the lobby for the board, with game id (if any) on it and
// the focus, which was on the lobby's buttons.
async function play(id) {
  if (location.hash) history.pushState(null, '', location.pathname + location.search);
  route();
  scrollTo(0, 0); // the board from its top, wherever the lobby was scrolled
  if (id) await openById(id);
  board.focus({ preventScroll: true });
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
  syncNewGame();
  relog();
  if ($('result').open) openResult(false);
  if (!$('howto-view').hidden) await showHowto();
  else howtoLang = null;
}

async function start() {
  // Show the right view at once, before anything loads.
  $('game-view').hidden = /^#(howto|lobby)$/.test(location.hash);
  $('howto-view').hidden = location.hash !== '#howto';
  const sel = $('lang');
  const lang = preferred();
  sel.value = lang;
  sel.onchange = () => changeLang(sel.value);
  wireAccount();
  await setLang(lang);
  wireBoard();
  wireSettings();
  sound.setSound(S.settings.sound);
  observe(shown);
  invalidate();
  window.addEventListener('hashchange', route);
  route();
  setInterval(poll, 700);
  openGame();
}

// openGame opens ?game=ID, else this browser's last game, else a new one,
// retrying while the server is unreachable.
async function openGame() {
  let saved = new URLSearchParams(location.search).get('game');
  if (!saved) try { saved = localStorage.getItem(GAME_KEY); } catch { /* storage off */ }
  if (saved) {
    try {
      if (location.hash.startsWith('#seat=')) (await loadOnline()).keepFromLink(saved);
      let st = await api.get(saved);
      if (st.mode === 'online') st = await (await loadOnline()).openFromLink(st);
      if (secretOf(st.id)) {
        Object.assign(S.settings, { mode: st.mode, level: st.level || S.settings.level, variants: st.variants || [] });
        if (st.first === 0 || st.first === 1) S.settings.first = st.first;
      }
      setGame(st);
      return;
    } catch (e) {
      // A game the address names waits for the server out of reach (the
      // page says why it shows none); else a new game starts, in the
      // browser if need be.
      if (!(e instanceof APIError) && new URLSearchParams(location.search).get('game') === saved) { offline('status.offlineLink'); return; }
      if (e.code === 'engine_failed') fail(e); // a game kept here, not opened: said
    }
  }
  if (accountPage()) { lazy = true; return; }
  const opts = createOpts();
  if (opts.mode === 'online') opts.mode = 'ai'; // nobody to invite yet: the page opens on a game to play
  try {
    setGame(await api.create(opts));
  } catch (e) {
    if (e instanceof APIError) fail(e);
    else offline();
  }
}

// offline says the server is out of reach (key: the status's text) and
// tries again, unless a game has been started here meanwhile.
function offline(key = 'status.offline') {
  S.offline = key;
  invalidate();
  setTimeout(() => { if (!game()) openGame(); }, 3000);
}

start();
addEventListener('load', () => import('../offline/install.js')); // docs/OFFLINE.md
