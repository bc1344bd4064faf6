// The game shown: opening one (the address's, this browser's last, a new
// one), its feed and the polling that stands in for it, the errors said
// at the board. Panels hear of each game opened (onGame).

import { t } from './i18n.js';
import { createBoard } from './board.js';
import { api, subscribe } from './api.js';
import { problem, APIError } from './errors.js';
import { secretOf, seatOf } from './secrets.js';
import { S, me, flipped, game, snapshot } from './state.js';
import { board, invalidate, note, announce } from './view.js';
import { $ } from './dom.js';
import { show, receive } from './turns.js';

const GAME_KEY = 'oanquan.game';
const ONLINE_WAIT = 8000; // ms
const opening = []; // onGame's: called as a game is opened
const opened = []; // and once it is shown

// online is online.js once loaded (onlineShown): games between two
// people online need it, the first visit does not.
let online = null;
export const onlineShown = () => online;

export async function loadOnline() {
  if (!online) {
    const m = await import('./online.js');
    m.init({ open: openById, fail, note, show: (state) => receive({ type: 'state', state }) });
    online = m;
  }
  return online;
}

// onGame has fn(state) called as a game is opened, before it is shown,
// and then(state), if given, after.
export function onGame(fn, then) {
  opening.push(fn);
  if (then) opened.push(then);
}

// fail tells the player, at the board, what went wrong and what to do,
// in their language (errors.js problem), until they next act.
export function fail(e) {
  const { key, n } = problem(e);
  if (key === 'watch.note') S.watching = true;
  S.alert = () => t(key, { n });
  announce(S.alert());
  invalidate();
}

export async function refresh() {
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
  for (const fn of opening) fn(state);
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
  for (const fn of opened) fn(state);
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

export async function newGame(opts = {}) {
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

// within is promise p, or a failure past ms (problem says it as the
// server out of reach).
function within(p, ms) {
  return Promise.race([p, new Promise((_, no) => setTimeout(() => no(new Error('no answer in time')), ms))]);
}

// openById shows game id (from "Your games", a rematch), taking a seat
// in it if it is an online game with one free.
export async function openById(id) {
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

// accountPage: the address is a profile's or the leaderboards'.
export const accountPage = () => /^\/(@\/|leaderboard)/.test(location.pathname);

// lazy: a first visit at such an address starts no computer game until
// the board is shown (boardShown(), from account.js).
let lazy = false;
export const boardShown = () => { if (lazy && !new URLSearchParams(location.search).get('game')) openGame(); lazy = false; };

// start opens the game.
export function start() {
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
