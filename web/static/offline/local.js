// Games played in the browser, with no server (docs/OFFLINE.md): against
// the computer and two players on one device. api.js sends here the calls
// for these games (ids "local-…", and server games carried on here) and
// those the server cannot be reached for. The engine is the Go one, in a
// Web Worker (engine-worker.js): this module decides no rule. Games are
// kept in localStorage as their settings and moves, and rebuilt by
// replaying them; the computer's replies come into the page's turn
// pipeline as the server's WebSocket messages would.

import { APIError, keepSecret, secretOf } from '../js/api.js';
import { S } from '../js/state.js';
import { receiveTurn, receiveState } from '../js/turns.js';
import { invalidate } from '../js/view.js';

const GAMES_KEY = 'oanquan.local'; // {id: saved}, api.js reads its ids
const LAST_KEY = 'oanquan.last'; // the server's last state of the game on screen (api.js)
const KEEP = 20; // games kept

let worker = null;
let count = 0;
const waiting = new Map(); // request number -> {resolve, reject}

function games() {
  try { return JSON.parse(localStorage.getItem(GAMES_KEY) || '{}') || {}; } catch { return {}; }
}

function keep(saved) {
  if (!saved) return;
  const all = games();
  delete all[saved.id];
  all[saved.id] = saved;
  for (const old of Object.keys(all).slice(0, -KEEP)) delete all[old];
  try { localStorage.setItem(GAMES_KEY, JSON.stringify(all)); } catch { /* storage full or off */ }
}

// engine sends one request to the worker, started on first use.
function engine(request) {
  if (!worker) {
    worker = new Worker(new URL('engine-worker.js', import.meta.url));
    worker.onmessage = (e) => {
      const { n, answer, update, failed } = e.data;
      if (update) { onUpdate(JSON.parse(update)); return; }
      const w = waiting.get(n);
      waiting.delete(n);
      if (failed) w.reject(new Error(failed));
      else w.resolve(JSON.parse(answer));
    };
  }
  const n = ++count;
  return new Promise((resolve, reject) => {
    waiting.set(n, { resolve, reject });
    worker.postMessage({ n, request: JSON.stringify(request) });
  });
}

// onUpdate takes a game's update: kept, and shown if the game is on screen.
function onUpdate({ id, message, saved }) {
  keep(saved);
  if (!S.state || S.state.id !== id) return;
  if (message.type === 'turn') receiveTurn(message.turn);
  else if (message.type === 'state') receiveState(message.state);
  else if (message.type === 'thinking') { S.thinking = message.thinking; invalidate(); }
}

// ask sends a request about a game, with the game as kept, and returns
// the body of the answer, or throws an APIError as the server's would.
async function ask(request) {
  request.game = games()[request.id];
  const { status, body, saved } = await engine(request);
  keep(saved);
  document.documentElement.dataset.live = 'on'; // as api.js's Live does for a server's game (for the tests)
  if (status >= 400) throw new APIError(status, body.error.code, body.error.message);
  if (body && body.id && !secretOf(body.id)) keepSecret(body.id, '-'); // a game made here: this browser holds both seats
  return body;
}

// adoptable returns the last state of a server game that can carry on
// here: the one on screen, or the one install.js kept; only a game this
// browser plays (it holds its seat secret), not one it watches.
function adoptable(id) {
  let st = S.state && S.state.id === id ? S.state : null;
  if (!st) try { st = JSON.parse(localStorage.getItem(LAST_KEY) || 'null'); } catch { /* none */ }
  return st && st.id === id && secretOf(id) && (st.mode === 'ai' || st.mode === 'local') ? st : null;
}

// linked is true when the page's address names game id (?game=ID).
function linked(id) { return new URLSearchParams(location.search).get('game') === id; }

// call answers api.js's call (method, path, body) of docs/API.md. failed
// is fetch's error when the server could not be reached: a call this
// module cannot take is then refused with it.
export async function call(method, path, body, failed) {
  const url = new URL(path, location.href);
  if (method === 'POST' && url.pathname === '/api/review') return ask({ op: 'reviewRecord', record: body && body.record, ply: body && body.ply });
  const [, , , id, what = ''] = url.pathname.split('/');
  const route = `${method} ${id ? (what || 'game') : 'games'}`;
  if (route === 'POST games') {
    const mode = (body && body.mode) || 'ai';
    if (mode !== 'ai' && mode !== 'local') throw failed;
    return ask({ op: 'create', create: body });
  }
  if (!id) throw failed;
  if (!(id in games())) {
    const st = adoptable(id);
    if (st) await ask({ op: 'adopt', state: st });
    // A game this browser cannot carry on: if the address names it (a
    // friend's link) and the server was out of reach, it waits for the
    // server (app.js says so); if it was only the last game shown, a new
    // one starts here.
    else if (route === 'GET game' && !S.state && !(linked(id) && failed)) return call('POST', '/api/games', { ...S.settings, human: 0, first: Number(S.settings.first) });
    else throw failed;
  }
  const ops = {
    'GET game': { op: 'get' },
    'POST moves': { op: 'move', move: body && body.move, ply: body && body.ply },
    'POST undo': { op: 'undo' },
    'PUT level': { op: 'level', level: body && body.level },
    'GET hints': { op: 'hints' },
    'GET record': { op: 'record' },
    'GET review': { op: 'review', ply: Number(url.searchParams.get('ply')) },
  };
  const op = ops[route];
  if (!op) throw failed || new APIError(404, 'not_found', `no such call here: ${route}`);
  return ask({ ...op, id });
}
