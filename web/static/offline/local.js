// Games played in the browser, with no server (docs/OFFLINE.md): against
// the computer and two players on one device. api.js sends here the calls
// for these games (ids "local-…", and server games carried on here) and
// those the server cannot be reached for. The engine is the Go one, in a
// Web Worker (engine-worker.js): this module decides no rule. Games are
// kept in localStorage as their settings and moves, and rebuilt by
// replaying them. A call is forwarded as the page makes it to the server
// (docs/OFFLINE.md): the engine routes it as the server does. Each game's
// updates (the computer's turns, its thinking) go to the game's
// subscribers as the server's WebSocket messages would (api.js subscribe).

import { APIError } from '../js/errors.js';
import { keepSecret, secretOf } from '../js/secrets.js';

const GAMES_KEY = 'oanquan.local'; // {id: saved}, api.js reads its ids
const LAST_KEY = 'oanquan.last'; // the server's last state of the game on screen (api.js)
const KEEP = 20; // games kept

// SILENCE is how long (ms) the engine may say nothing while calls wait
// for it before it is taken for dead: its start (the wasm compiled, the
// table awaited: well under a second here, docs/OFFLINE.md) and any one
// answer take far less, even on a slow phone.
const SILENCE = 15000;

let worker = null;
let count = 0;
let watchdog = 0; // the timer of the engine's silence (watch)
const waiting = new Map(); // request number -> {resolve, reject}
const listeners = new Map(); // game id -> the functions its messages go to

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

// engine sends one request to the worker, started on first use. It is
// refused (broken) if the worker fails: its files cannot be loaded, it
// throws, or it says nothing for SILENCE while calls wait.
function engine(request) {
  if (!worker) start();
  const n = ++count;
  return new Promise((resolve, reject) => {
    waiting.set(n, { resolve, reject });
    worker.postMessage({ n, request: JSON.stringify(request) });
    watch();
  });
}

// start starts the engine's worker and takes its messages: answers to
// the calls waiting, and games' updates.
function start() {
  const w = new Worker(new URL('engine-worker.js', import.meta.url));
  worker = w;
  w.onmessage = (e) => {
    const { n, answer, update, failed } = e.data;
    if (update) { watch(); onUpdate(JSON.parse(update)); return; }
    const call = waiting.get(n);
    waiting.delete(n);
    watch();
    if (!call) return;
    if (failed) call.reject(broken(failed)); // its wasm could not be had or started
    else call.resolve(JSON.parse(answer));
  };
  // Not loaded, or an error the worker did not catch (the wasm's
  // runtime gone): it is ended, and its calls fail. The browser logs
  // the error itself.
  w.onerror = (e) => stop(w, e.message || 'its script could not be loaded');
  w.onmessageerror = () => stop(w, 'a message could not be read');
}

// watch times the engine's silence while calls wait for it (the time is
// counted again from each message, so that a long queue of calls to a
// working engine is not taken for a dead one).
function watch() {
  clearTimeout(watchdog);
  if (waiting.size) watchdog = setTimeout(() => stop(worker, `no answer in ${SILENCE / 1000} s`), SILENCE);
}

// stop ends worker w, which failed, and fails every call waiting for it;
// the next call starts another.
function stop(w, why) {
  if (!w || w !== worker) return;
  w.terminate();
  worker = null;
  clearTimeout(watchdog);
  const calls = [...waiting.values()];
  waiting.clear();
  for (const c of calls) c.reject(broken(why));
}

// broken is the error of a call the engine could not answer: api.js
// problem says it in the player's words (error.engine).
function broken(why) {
  return new APIError(500, 'engine_failed', `the engine in the browser failed: ${why}`);
}

// lastTurn holds each game's last update if it was a turn, for a
// subscriber that comes after it (subscribe).
const lastTurn = new Map();

// onUpdate takes a game's update: kept, and sent to its subscribers.
function onUpdate({ id, message, saved }) {
  keep(saved);
  if (message.type === 'turn') lastTurn.set(id, message);
  else if (message.type === 'state' && message.state.ply !== lastTurn.get(id)?.turn.state.ply) lastTurn.delete(id);
  for (const fn of listeners.get(id) || []) fn(message);
}

// subscribe calls onMessage with each message of game id, as the
// server's WebSocket would, until the function it returns is called.
// seen, if given, is the ply of the game the subscriber shows: as the
// server does (docs/API.md, the WebSocket's ?seen=N), the turn played at
// it is sent first if it is the last thing that happened — the
// computer's opening move, made before the page subscribed.
export function subscribe(id, onMessage, seen = -1) {
  if (!listeners.has(id)) listeners.set(id, new Set());
  listeners.get(id).add(onMessage);
  const t = lastTurn.get(id);
  if (t && seen >= 0 && t.turn.ply === seen) onMessage(t);
  return () => listeners.get(id).delete(onMessage);
}

// ask sends a request to the engine, with the game as kept, and returns
// its answer (status, body).
async function ask(request) {
  const answer = await engine(request);
  keep(answer.saved);
  return answer;
}

// adoptable returns the last state install.js kept of server game id if
// it can carry on here: only a game this browser plays (it holds its seat
// secret), not one it watches.
function adoptable(id) {
  let st = null;
  try { st = JSON.parse(localStorage.getItem(LAST_KEY) || 'null'); } catch { /* none */ }
  return st && st.id === id && secretOf(id) && (st.mode === 'ai' || st.mode === 'local') ? st : null;
}

// call answers api.js's call (method, path, body) of docs/API.md as the
// server would, or throws an APIError as api.js does. failed is fetch's
// error when the server could not be reached: a call the engine cannot
// take without the server (not_offline), or about a game this browser
// neither keeps nor can carry on, is then refused with it; so is one the
// engine failed to answer (broken), as the engine only stood in for the
// server, whose absence is what the player can do something about (and a
// call that needs the server would have been refused anyway).
export async function call(method, path, body, failed) {
  try {
    return await answer(method, path, body, failed);
  } catch (e) {
    throw failed && e.code === 'engine_failed' ? failed : e;
  }
}

async function answer(method, path, body, failed) {
  const id = new URL(path, location.href).pathname.split('/')[3];
  if (id && !(id in games())) {
    const st = adoptable(id);
    if (!st) throw failed || new APIError(404, 'not_found', `no game ${id} here`);
    await ask({ op: 'adopt', state: st });
  }
  const { status, body: out } = await ask({ method, path, body: body ?? null, game: games()[id] ?? null });
  if (status >= 400) {
    const e = out.error;
    if (e.code === 'not_offline' && failed) throw failed;
    throw new APIError(status, e.code, e.message);
  }
  if (out && out.id && !secretOf(out.id)) keepSecret(out.id, '-'); // a game made here: this browser holds both seats
  return out;
}
