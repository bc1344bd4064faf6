// The server (docs/API.md): JSON over HTTP and a WebSocket of turns.
// Requests acting for a seat carry the game's seat secret, kept in
// localStorage by game id (never in the address).

const SECRETS_KEY = 'oanquan.secrets';
// OPEN stands for the secret of a game made by a server that gives none:
// this browser made it, and sends no header.
const OPEN = '-';

export class APIError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, for rate_limited
  }
}

function secrets() {
  try { return JSON.parse(localStorage.getItem(SECRETS_KEY) || '{}') || {}; } catch { return {}; }
}

// secretOf returns the seat secret kept for game id, or ''.
export function secretOf(id) { return secrets()[id] || ''; }

// keepSecret remembers the secret of a game this browser created; the
// twenty most recent are kept.
export function keepSecret(id, secret) {
  if (!id || !secret) return;
  const all = secrets();
  delete all[id];
  all[id] = secret;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete all[old];
  try { localStorage.setItem(SECRETS_KEY, JSON.stringify(all)); } catch { /* storage off */ }
}

// Games kept in the browser, or the server out of reach: docs/OFFLINE.md.
const here = (id) => { try { return localStorage.getItem('oanquan.local').includes(`"${id}"`); } catch { return false; } };
const offline = (...a) => import('../offline/local.js').then((m) => m.call(...a));

async function call(method, path, body, id) {
  if (here(path.split('/')[3])) return offline(method, path, body);
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const secret = id ? secretOf(id) : '';
  if (secret && secret !== OPEN) init.headers.Authorization = `Bearer ${secret}`;
  let res;
  try { res = await fetch(path, init); } catch (e) { return offline(method, path, body, e); }
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new APIError(res.status, e.code || 'error', e.message || String(res.status), Number(res.headers.get('Retry-After')) || 0);
  }
  return data;
}

export const api = {
  create: async (opts) => {
    const st = await call('POST', '/api/games', opts);
    keepSecret(st.id, st.secret || OPEN);
    return st;
  },
  get: (id) => call('GET', `/api/games/${id}`),
  move: (id, move, ply) => call('POST', `/api/games/${id}/moves`, { move, ply }, id),
  undo: (id) => call('POST', `/api/games/${id}/undo`, undefined, id),
  level: (id, level) => call('PUT', `/api/games/${id}/level`, { level }, id),
  hints: (id) => call('GET', `/api/games/${id}/hints`, undefined, id),
  record: (id) => call('GET', `/api/games/${id}/record`),
};
// Live keeps a WebSocket open to one game and calls onMessage with each
// message; it reconnects after a drop (the server then sends a fresh
// state). open reports whether the socket is up, so that the page can poll
// instead while it is not.
export class Live {
  constructor(id, onMessage) {
    this.id = id;
    this.onMessage = onMessage;
    this.closed = false;
    this.delay = 500;
    this.connect();
  }

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  connect() {
    if (this.closed) return;
    if (here(this.id)) { this.ws = { readyState: 1, close() {} }; return; }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      document.documentElement.dataset.live = 'on'; // for the tests
    };
    ws.onmessage = (e) => {
      try { this.onMessage(JSON.parse(e.data)); } catch (err) { console.warn(err); }
    };
    ws.onclose = () => {
      if (this.closed) return;
      document.documentElement.dataset.live = 'off';
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
