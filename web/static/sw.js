// The service worker (docs/OFFLINE.md): the page's files kept in the
// browser, so that the game opens and plays with no connection. The
// server fills in FILES, each file's path and content hash: a new version
// of any file makes a new sw.js, which the browser installs beside the
// running one; it takes over when the player reloads (offline/install.js
// tells them) or has closed every page of the game. API requests always
// go to the network and are never kept.

const FILES = {}; // filled in by the server
const CACHE = 'oanquan';

// key is the name a file is kept under: its path and its hash, so that a
// file that did not change is not fetched again by a new version.
const key = (path) => new URL(`${path}?v=${FILES[path]}`, location.origin).href;

self.addEventListener('install', (e) => e.waitUntil(precache()));

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(Object.keys(FILES).map(async (path) => {
    if (await cache.match(key(path))) return;
    const res = await fetch(path, { cache: 'no-cache' });
    const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', await res.clone().arrayBuffer()));
    const hex = [...sum.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
    // A server updated meanwhile: fail, the browser tries again later.
    if (!res.ok || hex !== FILES[path]) throw new Error(`${path}: ${res.status}, hash ${hex}, want ${FILES[path]}`);
    await cache.put(key(path), res);
  }));
}

self.addEventListener('activate', (e) => e.waitUntil((async () => {
  const cache = await caches.open(CACHE);
  const keep = new Set(Object.keys(FILES).map(key));
  for (const req of await cache.keys()) if (!keep.has(req.url)) await cache.delete(req);
  await self.clients.claim();
})()));

self.addEventListener('message', (e) => {
  if (e.data === 'skipWaiting') self.skipWaiting(); // the player chose to reload
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.startsWith('/api/')) return; // the network's
  const path = e.request.mode === 'navigate' ? '/' : url.pathname;
  if (!FILES[path]) return;
  e.respondWith(caches.match(key(path)).then((res) => res || fetch(e.request)));
});
