// The engine in the browser (docs/OFFLINE.md): the Go packages rules,
// notation, ai and match compiled to WebAssembly (cmd/engine-wasm), run
// in this worker so that the page never waits for the computer's search.
// Messages in: {n, request} (an offline.Request in JSON); out: {n, answer}
// and {update} (JSON too). wasm_exec.js is the Go toolchain's own.
// The endgame table is the one the service worker keeps (sw.js), read
// from its cache once the engine is ready, never from the network, so
// that a stalled connection holds up nothing; requests wait for it at
// most TABLE_WAIT (it takes a few milliseconds), then are answered
// without it until it comes. Without it the engine searches as it would,
// so a missing table only costs a warning; one the engine refuses (of
// another format, left by an older version) is deleted.

importScripts('wasm_exec.js');

self.oanquanUpdate = (update) => postMessage({ update });

const CACHE = 'oanquan'; // sw.js's
const TABLE = new URL('/offline/endgames.egtb', location.origin).href;
const TABLE_WAIT = 2000; // ms

const go = new Go();
const ready = WebAssembly.instantiateStreaming(fetch('engine.wasm'), go.importObject).then(({ instance }) => {
  go.run(instance); // runs until main waits; oanquanDo is then defined
});
const table = ready.then(loadTable).catch((err) => console.warn('endgame table:', err));
const started = ready.then(() => Promise.race([table, new Promise((ok) => setTimeout(ok, TABLE_WAIT))]));

// loadTable gives the engine the table kept, if any (no CacheStorage
// outside a secure context: no service worker there either).
async function loadTable() {
  const kept = await self.caches?.match(TABLE, { cacheName: CACHE });
  if (!kept) return;
  const refused = self.oanquanEndgames(new Uint8Array(await kept.arrayBuffer()));
  if (!refused) return;
  console.warn('endgame table:', refused);
  // Deleted, unless the service worker has kept another meanwhile.
  const cache = await caches.open(CACHE);
  const now = await cache.match(TABLE);
  if (now && now.headers.get('X-Hash') === kept.headers.get('X-Hash')) await cache.delete(TABLE);
}

onmessage = async (e) => {
  const { n, request } = e.data;
  try {
    await started;
  } catch (err) {
    postMessage({ n, failed: String(err) });
    return;
  }
  self.oanquanDo(request, (answer) => postMessage({ n, answer }));
};
