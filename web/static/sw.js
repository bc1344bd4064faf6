// The service worker (docs/OFFLINE.md): the page's files kept in the
// browser, so that the game opens and plays with no connection. The
// server fills in FILES, each file's path and content hash: a new version
// of any file makes a new sw.js, which the browser installs beside the
// running one; it takes over when the player reloads (offline/install.js
// tells them) or has closed every page of the game. API requests always
// go to the network and are never kept.
//
// The endgame table for the engine in the browser (docs/OFFLINE.md) is
// not one of FILES: it is larger than all of them together, so it is
// fetched after the page has loaded (offline/install.js asks, on each
// visit), checked against its hash, and kept under TABLE, where the
// engine's worker reads it (offline/engine-worker.js). The server says
// which table it has at /offline/endgames.json: while it builds one (503)
// or offline, the one kept stays; when it has none (404), the one kept is
// deleted.

const FILES = {}; // filled in by the server
const CACHE = 'oanquan';

// key is the name a file is kept under: its path and its hash, so that a
// file that did not change is not fetched again by a new version.
const key = (path) => new URL(`${path}?v=${FILES[path]}`, location.origin).href;

const TABLE = new URL('/offline/endgames.egtb', location.origin).href;

// hexHash is the hash the server lists for a file's bytes: the first 12
// bytes of its SHA-256, in hex.
async function hexHash(buf) {
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
  return [...sum.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

self.addEventListener('install', (e) => e.waitUntil(precache()));

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(Object.keys(FILES).map(async (path) => {
    if (await cache.match(key(path))) return;
    const res = await fetch(path, { cache: 'no-cache' });
    const hex = await hexHash(await res.clone().arrayBuffer());
    // A server updated meanwhile: fail, the browser tries again later.
    if (!res.ok || hex !== FILES[path]) throw new Error(`${path}: ${res.status}, hash ${hex}, want ${FILES[path]}`);
    await cache.put(key(path), res);
  }));
}

self.addEventListener('activate', (e) => e.waitUntil((async () => {
  const cache = await caches.open(CACHE);
  const keep = new Set(Object.keys(FILES).map(key));
  keep.add(TABLE);
  for (const req of await cache.keys()) if (!keep.has(req.url)) await cache.delete(req);
  await self.clients.claim();
})()));

// updateTable keeps the server's endgame table, if it has one that is not
// kept yet. One update at a time, however many pages ask.
let updating = null;
function updateTable() {
  updating ||= (async () => {
    const info = await fetch('/offline/endgames.json', { cache: 'no-cache' });
    const cache = await caches.open(CACHE);
    if (info.status === 404) { // none on this server: none kept either
      await cache.delete(TABLE);
      return;
    }
    if (!info.ok) return; // being built (503): the next visit asks again
    const { url, hash } = await info.json();
    const kept = await cache.match(TABLE);
    if (kept && kept.headers.get('X-Hash') === hash) return;
    // Not through the browser's HTTP cache: it would keep a second copy,
    // and a copy altered on the way would fail the hash check for ever.
    const res = await fetch(url, { cache: 'no-store' });
    const buf = await res.arrayBuffer();
    const hex = await hexHash(buf);
    if (!res.ok || hex !== hash) throw new Error(`${url}: ${res.status}, hash ${hex}, want ${hash}`);
    await cache.put(TABLE, new Response(buf, { headers: { 'Content-Type': 'application/octet-stream', 'X-Hash': hash } }));
  })().catch((err) => console.warn('endgame table:', err)).finally(() => { updating = null; });
  return updating;
}

self.addEventListener('message', (e) => {
  if (e.data === 'skipWaiting') self.skipWaiting(); // the player chose to reload
  if (e.data === 'endgames') e.waitUntil(updateTable()); // a page has loaded
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')) return; // the network's
  // Every page's address is the one page: /, /?game=…, a profile's /@/NAME,
  // /leaderboard/SPEED (which say, offline, that they need the server).
  const path = e.request.mode === 'navigate' ? '/' : url.pathname;
  if (!FILES[path]) return;
  e.respondWith(caches.match(key(path)).then((res) => res || fetch(e.request)));
});
