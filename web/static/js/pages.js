// What the account's dialog and pages (account.js, profile.js,
// leaderboard.js) share: links between the pages, drawing again in
// another language, ratings as shown, and a refusal in the player's
// words, from its error's code, field and reason, never its English text.

import { t, currentLang } from './i18n.js';
import { problem, APIError } from './errors.js';
import { $, el } from './dom.js';

const redraws = new Set(); // what to draw again in another language

// Strings are loaded before the page's lang is set (i18n.js setLang):
// what is drawn from them is drawn again then.
new MutationObserver(() => { for (const f of redraws) f(); })
  .observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });

// onLang has f called each time the page's language changes.
export function onLang(f) { redraws.add(f); }

// SPEEDS are the speeds of ratings (internal/rating), fastest first.
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

// points says a rating's value in the page's digits, rounded and not
// grouped (1567, not 1,567).
export function points(n) {
  return new Intl.NumberFormat(currentLang(), { useGrouping: false, maximumFractionDigits: 0 }).format(Math.round(n));
}

// ratingText is a rating as shown: rounded, with "?" while provisional.
export function ratingText(r) {
  return `${points(r.rating)}${r.provisional ? '?' : ''}`;
}

// go shows the page at path (a profile, the leaderboards, the game): the
// account's module shows what an address names at each popstate.
export function go(path) {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

// pageLink links to a page of the account's (a profile, the
// leaderboards), shown without reloading.
export function pageLink(path, key, text, cls = 'btn') {
  const a = el('a', { href: path, textContent: text ?? t(key), className: cls });
  a.onclick = (e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
    e.preventDefault();
    if ($('account')?.open) $('account').close();
    go(path);
  };
  return a;
}

// say returns what to tell the player of a refused account request: the
// key of the message and its values. field names the form's field, when
// the refusal is about one of them.
export function say(e, form = '') {
  // Out of reach (or the engine in the browser, which keeps no accounts).
  if (!(e instanceof APIError)) return { key: 'account.err.needsNetwork' };
  const d = e.detail || {};
  switch (e.code) {
    case 'bad_credentials': return { key: form === 'password' || form === 'delete' ? 'account.err.wrongPassword' : 'account.err.credentials', field: form === 'password' ? 'old' : 'password' };
    case 'username_taken': return { key: 'account.err.taken', field: 'username' };
    case 'signed_out': return { key: 'account.err.signedOut' };
    case 'not_found': return { key: 'account.err.noPlayer' };
    case 'not_offline': return { key: 'account.err.needsNetwork' };
    case 'rate_limited': return { key: 'error.rateLimited', n: Math.max(1, e.retryAfter || 1) };
    case 'bad_request': {
      const kind = d.field === 'username' ? 'username' : ['password', 'new', 'old'].includes(d.field) ? 'password' : null;
      if (!kind || !d.reason) break;
      return { key: `account.err.${kind}.${d.reason}`, field: d.field, known: true };
    }
  }
  return problem(e);
}

// sayText is say's message in the page's language; a reason this page
// does not know yet is said in general terms for its field.
export function sayText(s) {
  const text = t(s.key, { n: s.n ?? 0, min: s.key.endsWith('password.too_short') ? 8 : 3, max: 20 });
  if (s.known && text === s.key) return t(s.key.startsWith('account.err.username') ? 'account.err.username' : 'account.err.password');
  return text;
}
