// The games this browser holds a seat in: each one's seat secret, kept in
// localStorage by game id (never in the address), the seat it plays
// online and since when. Requests acting for a seat carry its secret
// (api.js); the engine in the browser keeps those of the games it makes
// (offline/local.js).

const SECRETS_KEY = 'oanquan.secrets';
// OPEN stands for the secret of a game made by a server that gives none:
// this browser made it, and sends no header.
export const OPEN = '-';

function secrets() {
  try { return JSON.parse(localStorage.getItem(SECRETS_KEY) || '{}') || {}; } catch { return {}; }
}

// secretOf returns the seat secret kept for game id, or ''.
export function secretOf(id) { return secrets()[id] || ''; }

// keepSecret remembers the secret of a game this browser holds a seat
// in, with the seat when it is one (online games); the 200 most recent
// are kept, the latest last.
export function keepSecret(id, secret, seat) {
  if (!id || !secret) return;
  const all = secrets();
  delete all[id];
  all[id] = secret;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete all[old];
  try { localStorage.setItem(SECRETS_KEY, JSON.stringify(all)); } catch { /* storage off */ }
  const when = since();
  if (!when[id]) when[id] = Date.now();
  for (const old of Object.keys(when)) if (!(old in all)) delete when[old];
  try { localStorage.setItem(SINCE_KEY, JSON.stringify(when)); } catch { /* storage off */ }
  if (seat === 0 || seat === 1) {
    const s = seats();
    s[id] = seat;
    for (const old of Object.keys(s)) if (!(old in all)) delete s[old];
    try { localStorage.setItem(SEATS_KEY, JSON.stringify(s)); } catch { /* storage off */ }
  }
}

const SEATS_KEY = 'oanquan.seats';
// SINCE_KEY keeps when this browser took each game's seat (ms), so that
// "Your games" can tell games apart by date.
const SINCE_KEY = 'oanquan.since';

function since() {
  try { return JSON.parse(localStorage.getItem(SINCE_KEY) || '{}') || {}; } catch { return {}; }
}

// keptSince returns when this browser took a seat in game id (ms since
// 1970), or 0 when it does not know.
export function keptSince(id) { return since()[id] || 0; }

function seats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}') || {}; } catch { return {}; }
}

// seatOf returns the seat this browser plays in online game id, or null.
export function seatOf(id) {
  const s = seats()[id];
  return s === 0 || s === 1 ? s : null;
}

// heldGames lists the ids of the games this browser holds a seat in,
// the most recent first.
export function heldGames() { return Object.keys(secrets()).reverse(); }
