// The engine in the browser (docs/OFFLINE.md): the Go packages rules,
// notation, ai and match compiled to WebAssembly (cmd/engine-wasm), run
// in this worker so that the page never waits for the computer's search.
// Messages in: {n, request} (an offline.Request in JSON); out: {n, answer}
// and {update} (JSON too). wasm_exec.js is the Go toolchain's own.
// The endgame table (endgames.egtb) comes from the service worker's cache
// alone (sw.js fetches it after a visit); without it the engine searches
// as it would, so a missing or bad table only costs a warning.

importScripts('wasm_exec.js');

self.oanquanUpdate = (update) => postMessage({ update });

const go = new Go();
const ready = WebAssembly.instantiateStreaming(fetch('engine.wasm'), go.importObject).then(async ({ instance }) => {
  go.run(instance); // runs until main waits; oanquanDo is then defined
  try {
    const res = await fetch('endgames.egtb');
    if (res.status !== 200) return; // none kept yet (204): the next worker will have it
    const refused = self.oanquanEndgames(new Uint8Array(await res.arrayBuffer()));
    if (refused) console.warn('endgame table:', refused);
  } catch (err) {
    console.warn('endgame table:', err);
  }
});

onmessage = async (e) => {
  const { n, request } = e.data;
  try {
    await ready;
  } catch (err) {
    postMessage({ n, failed: String(err) });
    return;
  }
  self.oanquanDo(request, (answer) => postMessage({ n, answer }));
};
