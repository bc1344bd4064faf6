// Who is signed in on this browser (docs/API.md, "Accounts and ratings"):
// the one place that asks the server (GET /api/me) and keeps the name,
// in the browser's storage too, the only way a browser gets a session
// (the header's button shows it before anything is asked). A browser that
// never signed in is not asked: the server's 401 would be logged in the
// console as a failed load, for every visitor.

import { call } from './api.js';
import { APIError } from './errors.js';

const ME_KEY = 'oanquan.me';
let who; // the username: null when signed out, undefined until known
const watchers = [];

// kept returns the name this browser last signed in with, or null.
export function kept() {
  try { return localStorage.getItem(ME_KEY); } catch { return null; }
}

// me returns the username signed in, as far as the page knows (null:
// signed out, or not known yet).
export function me() { return who ?? null; }

// setMe keeps name as the one signed in (null: signed out) and tells the
// watchers (onMe) with the name known before (undefined: none).
export function setMe(name) {
  const was = who;
  who = name;
  try {
    if (name) localStorage.setItem(ME_KEY, name);
    else localStorage.removeItem(ME_KEY);
  } catch { /* storage off */ }
  for (const f of watchers) f(name, was);
}

// onMe has f(name, was) called each time setMe is.
export function onMe(f) { watchers.push(f); }

// askMe asks the server who is signed in: the Player, or null when the
// session has ended (signed out everywhere, expired: the name is then
// forgotten). Any other failure is thrown.
export async function askMe() {
  try {
    const p = await call('GET', '/api/me');
    setMe(p.username);
    return p;
  } catch (e) {
    if (!(e instanceof APIError && e.status === 401)) throw e;
    setMe(null);
    return null;
  }
}
