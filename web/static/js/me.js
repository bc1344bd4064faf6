// Who is signed in (docs/API.md, "Accounts and ratings"): the one place
// that asks the server (GET /api/me) and keeps the name, in storage too
// (the header shows it before anything is asked; a browser never signed
// in is not asked, or its 401 would be logged for every visitor).

import { call } from './api.js';
import { APIError } from './errors.js';

const ME_KEY = 'oanquan.me';
let who; // the username: null when signed out, undefined until known
const watchers = [];

// kept returns the name last signed in with here, or null.
export function kept() {
  try { return localStorage.getItem(ME_KEY); } catch { return null; }
}

// me returns the username signed in as far as known, or null.
export function me() { return who ?? null; }

// setMe keeps name as signed in (null: out) and tells onMe's watchers.
export function setMe(name) {
  const was = who;
  who = name;
  try {
    if (name) localStorage.setItem(ME_KEY, name);
    else localStorage.removeItem(ME_KEY);
  } catch { /* storage off */ }
  for (const f of watchers) f(name, was);
}

// onMe has f(name, was) called at each setMe (was: undefined at first).
export function onMe(f) { watchers.push(f); }

// askMe asks the server: the Player, or null for a session ended (the
// name forgotten); any other failure is thrown.
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
