// The seats this browser holds: each game's seat secret, kept by game id
// (never in the address), its seat online, since when. api.js and
// offline/local.js both keep and send them.

const SECRETS_KEY = 'oanquan.secrets';
// OPEN stands for the secret of a game made by a server that gives none:
// this browser made it, and sends no header.
export const OPEN = '-';

const SEATS_KEY = 'oanquan.seats';
// SINCE_KEY keeps when this browser took each game's seat (ms), so that
// "Your games" can tell games apart by date.
const SINCE_KEY = 'oanquan.since';

// read returns the map kept under key, by game id; write keeps it.
function read(key) {
  try { return JSON.parse(localStorage.getItem(key) || '{}') || {}; } catch { return {}; }
}
function write(key, map) {
  try { localStorage.setItem(key, JSON.stringify(map)); } catch { /* storage off */ }
}

// secretOf returns the seat secret kept for game id, or ''.
export function secretOf(id) { return read(SECRETS_KEY)[id] || ''; }

// keepSecret remembers the secret of a game this browser holds a seat
// in, with the seat when it is one (online games); the 200 most recent
// are kept, the latest last.
export function keepSecret(id, secret, seat) {
  if (!id || !secret) return;
  const all = read(SECRETS_KEY);
  delete all[id];
  all[id] = secret;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete all[old];
  write(SECRETS_KEY, all);
  const when = read(SINCE_KEY);
  if (!when[id]) when[id] = Date.now();
  for (const old of Object.keys(when)) if (!(old in all)) delete when[old];
  write(SINCE_KEY, when);
  if (seat === 0 || seat === 1) {
    const s = read(SEATS_KEY);
    s[id] = seat;
    for (const old of Object.keys(s)) if (!(old in all)) delete s[old];
    write(SEATS_KEY, s);
  }
}

// keptSince returns when this browser took a seat in game id (ms since
// 1970), or 0 when it does not know.
export function keptSince(id) { return read(SINCE_KEY)[id] || 0; }

// seatOf returns the seat this browser plays in online game id, or null.
export function seatOf(id) {
  const s = read(SEATS_KEY)[id];
  return s === 0 || s === 1 ? s : null;
}

// heldGames lists the ids of the games this browser holds a seat in,
// the most recent first.
export function heldGames() { return Object.keys(read(SECRETS_KEY)).reverse(); }
