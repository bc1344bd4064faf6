// The installable, offline page (docs/OFFLINE.md), loaded once the page
// has loaded: registers the service worker (/sw.js), and when a new
// version of the page is ready, says so above the board with a button to
// reload. Nothing reloads by itself: the game in progress goes on, and is
// the same after the reload (the server's, or the one kept in this
// browser). It also keeps the last state shown of a server's game, for
// local.js to carry it on should the server be out of reach after a
// reload.

import { t } from '../js/i18n.js';
import { observe } from '../js/turns.js';
import { game } from '../js/state.js';

const LAST_KEY = 'oanquan.last'; // local.js reads it

// keepLast keeps the state on screen, if a server's game that could go
// on offline.
function keepLast() {
  const st = game();
  if (!st || !(st.mode === 'ai' || st.mode === 'local') || st.id.startsWith('local-')) return;
  try { localStorage.setItem(LAST_KEY, JSON.stringify(st)); } catch { /* storage full or off */ }
}

observe((shown) => { if (shown.type === 'state') keepLast(); });
keepLast();

let reloading = false;

function offer(waiting) {
  let note = document.getElementById('update-note');
  if (!note) {
    note = document.createElement('p');
    note.id = 'update-note';
    note.className = 'note';
    note.setAttribute('role', 'status');
    const msg = document.createElement('span');
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'update-reload';
    note.append(msg, ' ', button);
    document.querySelector('.play').prepend(note);
  }
  for (const [el, key] of [[note.firstChild, 'update.ready'], [note.lastChild, 'update.reload']]) {
    el.textContent = t(key);
    el.dataset.i18n = key; // translated again with the page
  }
  note.lastChild.onclick = () => {
    reloading = true;
    waiting.postMessage('skipWaiting');
  };
}

async function register() {
  const sw = navigator.serviceWorker;
  const reg = await sw.register('/sw.js');
  sw.addEventListener('controllerchange', () => { if (reloading) location.reload(); });
  const watch = (w) => w.addEventListener('statechange', () => { if (w.state === 'installed' && sw.controller) offer(w); });
  if (reg.waiting && sw.controller) offer(reg.waiting);
  if (reg.installing) watch(reg.installing);
  reg.addEventListener('updatefound', () => watch(reg.installing));
  // An installed game may stay open for days: look for a new version
  // every hour too, not only when a page is opened.
  setInterval(() => reg.update().catch(() => { /* offline */ }), 60 * 60 * 1000);
  // The engine's endgame table, fetched by the service worker once the
  // page has loaded, and kept up to date (sw.js).
  (await sw.ready).active.postMessage('endgames');
}

// The colours of the browser's bar, light and dark: the page's own
// background (main.css). Here rather than in index.html, to keep the
// first load's bytes for the page.
for (const [scheme, colour] of [['light', '#f4ede0'], ['dark', '#16120d']]) {
  const meta = document.createElement('meta');
  meta.name = 'theme-color';
  meta.media = `(prefers-color-scheme: ${scheme})`;
  meta.content = colour;
  document.head.append(meta);
}

if ('serviceWorker' in navigator) register().catch((e) => console.warn('service worker:', e));
