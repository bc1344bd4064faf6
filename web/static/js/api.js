// The server (docs/API.md): JSON over HTTP and a WebSocket of turns.
// Requests acting for a seat carry the game's seat secret (secrets.js);
// a refusal is thrown as an APIError (errors.js).

import { APIError } from './errors.js';
import { OPEN, secretOf, keepSecret } from './secrets.js';

// Games kept in the browser, or the server out of reach: docs/OFFLINE.md.
const here = (id) => { try { return localStorage.getItem('oanquan.local').includes(`"${id}"`); } catch { return false; } };
const local = () => import('../offline/local.js');

// offline has the engine in the browser answer a call; a game carried on
// there from now on takes its feed from there too.
async function offline(method, path, body, failed) {
  const m = await local();
  const out = await m.call(method, path, body, failed);
  const id = path.split('/')[3];
  for (const f of feeds) if (f.id === id && here(id)) f.useEngine(m);
  return out;
}

export async function call(method, path, body, id, signal) {
  if (here(path.split('/')[3])) return offline(method, path, body);
  const init = { method, headers: {}, signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const secret = id ? secretOf(id) : '';
  if (secret && secret !== OPEN) init.headers.Authorization = `Bearer ${secret}`;
  let res;
  try { res = await fetch(path, init); } catch (e) {
    if (signal && signal.aborted) throw e; // stopped by the page, not a lost server
    return offline(method, path, body, e);
  }
  const type = res.headers.get('Content-Type') || '';
  const data = res.status === 204 ? null : type.includes('json') ? await res.json() : await res.text(); // 204: no body, whatever its type
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw Object.assign(new APIError(res.status, e.code || 'error', e.message || String(res.status), Number(res.headers.get('Retry-After')) || 0, e.state), { detail: e });
  }
  return data;
}

export const api = {
  create: async (opts) => {
    const st = await call('POST', '/api/games', opts);
    keepSecret(st.id, st.secret || OPEN, st.mode === 'online' ? st.seat : undefined);
    return st;
  },
  // join takes the free seat of online game id (or learns the seat this
  // browser's secret holds) and returns the game.
  join: async (id) => {
    const j = await call('POST', `/api/games/${id}/join`, undefined, id);
    keepSecret(id, j.secret || secretOf(id), j.seat);
    return j.game;
  },
  resign: (id) => call('POST', `/api/games/${id}/resign`, undefined, id),
  abort: (id) => call('POST', `/api/games/${id}/abort`, undefined, id),
  // offer makes, accepts or declines (action) an offer of kind "draw",
  // "takeback" or "rematch".
  offer: (id, kind, action) => call('POST', `/api/games/${id}/${kind}`, { action }, id),
  get: (id) => call('GET', `/api/games/${id}`),
  move: (id, move, ply) => call('POST', `/api/games/${id}/moves`, { move, ply }, id),
  // resend sends a move until the server answers: after a dropped
  // connection the same move at the same ply is played once (docs/API.md).
  // waiting(true) is called while it retries; stop() says to give up.
  resend: async (id, move, ply, waiting = () => {}, stop = () => false) => {
    for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
      try {
        const turn = await call('POST', `/api/games/${id}/moves`, { move, ply }, id);
        waiting(false);
        return turn;
      } catch (e) {
        if (e instanceof APIError && e.status !== 503 && e.status !== 502 && e.status !== 504) { waiting(false); throw e; }
        if (stop()) { waiting(false); throw e; }
        waiting(true);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  },
  undo: (id) => call('POST', `/api/games/${id}/undo`, undefined, id),
  level: (id, level) => call('PUT', `/api/games/${id}/level`, { level }, id),
  hints: (id) => call('GET', `/api/games/${id}/hints`, undefined, id),
  record: (id) => call('GET', `/api/games/${id}/record`),
  // review reviews move ply of game id (docs/API.md, "Game review").
  review: (id, ply, signal) => call('GET', `/api/games/${id}/review?ply=${ply}`, undefined, undefined, signal),
  // reviewRecord reviews move ply of a game record (docs/RECORD.md).
  reviewRecord: (record, ply, signal) => call('POST', '/api/review', { record, ply }, undefined, signal),
};
const feeds = new Set();

// How often (ms) a feed pings its WebSocket, and how long the server has to answer.
const PING_EVERY = 2000, PONG_WITHIN = 3000;

// subscribe calls onMessage with each message of game id's feed (docs/
// API.md, the WebSocket's messages) until the feed's close is called:
// the server's WebSocket, or for a game kept in the browser its engine
// (offline/local.js subscribe). feed.open says whether it is up, so
// that the page can poll while it is not; onLink(up), if given, is called
// each time that changes.
// seen(), if given, says the ply of the game the page shows: the server
// then sends the turn played at it first, if it is the last thing that
// happened (docs/API.md), so that a move made before the socket opened —
// the computer's opening move — is shown played.
export function subscribe(id, onMessage, onLink, seen) { return new Feed(id, onMessage, onLink, seen); }

// Feed keeps a WebSocket open to one game; it reconnects after a drop
// (the server then sends a fresh state). In an online game it says hello
// with the seat's secret, so that the other player sees this one is here.
// A game kept in the browser takes its messages from the engine instead.
// The browser going offline counts as a drop at once: a socket on a dead
// network may not close for minutes; one that dies with no offline event
// is found by the feed's pings (ping).
class Feed {
  constructor(id, onMessage, onLink = () => {}, seen = () => -1) {
    this.id = id;
    this.seen = seen;
    this.onMessage = onMessage;
    this.onLink = onLink;
    this.up = null;
    this.closed = false;
    this.delay = 500;
    // A page left for another (or kept in the back-forward cache) closes
    // its socket, so that the other player sees at once that this one has
    // gone; shown again, it reconnects for a fresh state.
    this.away = false;
    // The close codes tell the server how the page went (presence):
    // 1000, it was left or closed; 4000, its network went away.
    this.onHide = () => { this.away = true; if (this.ws) this.ws.close(1000); };
    this.onShow = () => { if (this.away && !this.closed) { this.away = false; this.connect(); } };
    this.onOffline = () => { const ws = this.ws; this.ws = null; if (ws) { ws.onclose = null; ws.close(4000); } this.link(false); this.retry(); };
    this.beat = setInterval(() => this.ping(), PING_EVERY);
    this.onOnline = () => { if (!this.open) { this.delay = 500; this.retry(0); } };
    addEventListener('pagehide', this.onHide);
    addEventListener('pageshow', this.onShow);
    addEventListener('offline', this.onOffline);
    addEventListener('online', this.onOnline);
    feeds.add(this);
    this.connect();
  }

  get open() { return !!this.unsubscribe || (this.ws && this.ws.readyState === WebSocket.OPEN); }

  // useEngine takes the game's messages from the engine in the browser (m,
  // offline/local.js) from now on.
  useEngine(m) {
    if (this.unsubscribe || this.closed) return;
    if (this.ws) this.ws.close();
    this.ws = null;
    this.unsubscribe = m.subscribe(this.id, this.onMessage, this.seen());
    this.link(true);
  }

  // ping pings the socket, or drops it when the last ping had no answer in
  // time (timed from the ping: a hidden tab's timers run late).
  ping() {
    const ws = this.ws;
    if (ws?.readyState !== WebSocket.OPEN) this.pinged = 0;
    else if (!this.pinged || this.heard >= this.pinged) { this.pinged = Date.now(); ws.send('{"type":"ping"}'); }
    else if (Date.now() - this.pinged > PONG_WITHIN) this.onOffline();
  }

  // link tells onLink whether the feed is up, when that changed.
  link(up) {
    if (this.closed || up === this.up) return;
    this.up = up;
    this.onLink(up);
  }

  // retry connects again after ms (the backoff's delay by default).
  retry(ms = this.delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), ms);
  }

  connect() {
    if (this.closed || this.unsubscribe) return;
    if (here(this.id)) { local().then((m) => this.useEngine(m)); return; }
    const old = this.ws; // a socket still trying: one at a time
    if (old) { old.onclose = old.onmessage = null; old.close(); }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const seen = this.seen();
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws${seen >= 0 ? `?seen=${seen}` : ''}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.link(true);
      const secret = secretOf(this.id);
      // The seat played, or (no secret) that this page watches: either
      // counts at once in who is here.
      ws.send(JSON.stringify(secret && secret !== OPEN ? { type: 'hello', secret } : { type: 'hello' }));
    };
    this.pinged = 0;
    ws.onmessage = (e) => {
      this.heard = Date.now();
      try { const msg = JSON.parse(e.data); if (msg.type !== 'pong') this.onMessage(msg); } catch (err) { console.warn(err); }
    };
    ws.onclose = () => {
      if (this.closed || this.away || this.ws !== ws) return;
      this.link(false);
      this.retry();
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  close() {
    this.closed = true;
    feeds.delete(this);
    removeEventListener('pagehide', this.onHide);
    removeEventListener('pageshow', this.onShow);
    removeEventListener('offline', this.onOffline);
    removeEventListener('online', this.onOnline);
    clearTimeout(this.timer);
    clearInterval(this.beat);
    if (this.ws) this.ws.close(1000);
    if (this.unsubscribe) this.unsubscribe();
  }
}
