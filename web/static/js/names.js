// The names of a game online's players (issue 21): its seats' accounts,
// an opponent the lobby paired, a friend by link, and the sentences said
// about the other player by name.

import { t } from './i18n.js';
import { call } from './api.js';
import { S, me, isOnline, game } from './state.js';
import { invalidate } from './view.js';

// A game's seats are named by their accounts (GET /api/games/{id}/players);
// a seat without one is "Opponent" in a game the lobby paired, "Your
// friend" in one made by a link. LOBBY_KEY keeps the ids of the games the
// lobby paired this browser in (the server does not say), the latest last.
const LOBBY_KEY = 'oanquan.lobby';
const fromLobby = new Set(readLobby());
// names holds, by game id, {taken, players}: the seats' usernames (null
// for none), asked again when a seat is taken (a friend joining).
const names = new Map();

function readLobby() {
  try { return JSON.parse(localStorage.getItem(LOBBY_KEY) || '[]'); } catch { return []; }
}

// markLobby notes that game id was paired by the lobby (lobby.js).
export function markLobby(id) {
  fromLobby.add(id);
  try { localStorage.setItem(LOBBY_KEY, JSON.stringify([...fromLobby].slice(-200))); } catch { /* storage off */ }
}

// learnNames asks who plays each seat of online game st, once for each
// set of seats taken; the page is drawn again with the names.
export function learnNames(st) {
  const taken = String(st.presence?.taken);
  const had = names.get(st.id);
  if (had && had.taken === taken) return;
  const now = { taken, players: had ? had.players : [] };
  names.set(st.id, now);
  call('GET', `/api/games/${st.id}/players`).then((v) => {
    now.players = (v.players || []).map((x) => x?.username || null);
    invalidate();
  }, () => { now.taken = ''; }); // asked again when the seats change
}

// isolate keeps a name's writing apart from the sentence around it (a
// Latin name in Persian, an Arabic-script one in English), as <bdi> does
// in markup: the names go into text, labels and the tab's title.
export function isolate(name) { return `\u2068${name}\u2069`; }

// named names seat p of the online game shown for state.js playerName:
// its account's username; "Opponent" for the other seat of a game the
// lobby paired; undefined otherwise (a friend by link, players 1 and 2
// for a watcher).
export function named(p) {
  const st = game();
  if (!st || !isOnline() || S.replay?.record) return undefined; // a record pasted: its players 1 and 2
  const u = names.get(st.id)?.players[p];
  if (u) return isolate(u);
  return fromLobby.has(st.id) && me() === 1 - p ? t('lobby.opponent') : undefined;
}

// aboutOther says the sentence of key about the other player: by name
// (lobby.KEY, with {name}) when named says one, else as a friend (KEY).
export function aboutOther(key, vars) {
  const mine = me();
  const name = mine === null ? undefined : named(1 - mine);
  return name ? t('lobby.' + key, { ...vars, name }) : t(key, vars);
}

// versus says whom seat plays in online game id, with the seats'
// usernames: by the other's name, as a lobby's opponent, or '' for a
// friend by link.
export function versus(id, seats, seat) {
  const other = seats[1 - seat];
  return other ? t('lobby.gameWith', { name: isolate(other) }) : fromLobby.has(id) ? t('lobby.gameLobby') : '';
}

// gameNames asks who plays each seat of the online games of Your games,
// as aboutGame reads it: {id: [username|null, username|null]}.
export async function gameNames(states) {
  const online = states.filter((g) => g.mode === 'online');
  const got = await Promise.all(online.map((g) => call('GET', `/api/games/${g.id}/players`).catch(() => null)));
  return Object.fromEntries(online.map((g, i) => [g.id, (got[i]?.players || []).map((x) => x?.username || null)]));
}


// playersOf returns the usernames of online game id's seats, as far as
// they are known (learnNames).
export function playersOf(id) { return names.get(id)?.players || []; }

// pairedByLobby says whether the lobby paired this browser in game id.
export function pairedByLobby(id) { return fromLobby.has(id); }
