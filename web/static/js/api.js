// Talking to the server (docs/API.md): JSON over HTTP, and a WebSocket
// that reports turns (the computer's included) as they happen.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

// Seat secrets: creating a game answers with the secret that acts for
// the creator's seats. It is kept in this browser's storage by game id,
// never in a URL, and sent with every request that acts for a seat.
const SECRETS = 'oanquan.secrets';

function secrets() {
  try { return JSON.parse(localStorage.getItem(SECRETS)) || {}; } catch { return {}; }
}

function keepSecret(id, secret) {
  const all = secrets();
  all[id] = secret;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete all[old]; // the oldest go first
  try { localStorage.setItem(SECRETS, JSON.stringify(all)); } catch { /* private mode: this tab only */ }
}

async function call(method, path, body, id) {
  const init = { method, headers: {} };
  const secret = id && secrets()[id];
  if (secret) init.headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new APIError(res.status, e.code || 'error', e.message || String(res.status));
  }
  return data;
}

export const api = {
  create: async (opts) => {
    const g = await call('POST', '/api/games', opts);
    keepSecret(g.id, g.secret);
    return g;
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
