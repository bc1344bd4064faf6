//go:build js && wasm

// Command engine-wasm is the game's engine for the browser: package
// offline compiled to WebAssembly (GOOS=js GOARCH=wasm), which the page
// runs in a Web Worker (web/static/offline/engine-worker.js) to play
// with no server. `oanquan wasm` builds it into web/static/offline
// (docs/OFFLINE.md).
//
// It defines one JavaScript function, oanquanDo(request, reply): request
// is an offline.Request in JSON (an API call as the page would make it
// to the server: {"method", "path", "body", "game"}; or one of the
// engine's own, by "op"), and reply is called once with the
// offline.Answer in JSON ({"status", "body", "saved"}). Every update of a game (offline.Update, in
// JSON) goes to the JavaScript function oanquanUpdate, which the worker
// defines before it starts the program.
//
// A second function, oanquanEndgames(bytes), gives the engine an endgame
// table: bytes is a Uint8Array holding a table file (package endgames),
// which the worker takes from the service worker's cache. It returns ""
// when the engine reads the table from then on, else why it cannot.
package main

import (
	"encoding/json"
	"syscall/js"

	"oanquan/ai/endgames"
	"oanquan/internal/offline"
)

func main() {
	update := js.Global().Get("oanquanUpdate")
	e := offline.New(func(u offline.Update) {
		b, err := json.Marshal(u)
		if err == nil {
			update.Invoke(string(b))
		}
	})
	js.Global().Set("oanquanDo", js.FuncOf(func(this js.Value, args []js.Value) any {
		text, reply := args[0].String(), args[1]
		// A search blocks: not in the callback, which holds up the
		// worker's event loop (syscall/js.FuncOf).
		go func() {
			var q offline.Request
			a := offline.Answer{Status: 400, Body: map[string]any{"error": map[string]string{"code": "bad_request", "message": "the request is not JSON"}}}
			if err := json.Unmarshal([]byte(text), &q); err == nil {
				a = e.Do(q)
			}
			b, _ := json.Marshal(a)
			reply.Invoke(string(b))
		}()
		return nil
	}))
	js.Global().Set("oanquanEndgames", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 1 || !args[0].InstanceOf(js.Global().Get("Uint8Array")) {
			return "oanquanEndgames takes one Uint8Array"
		}
		data := make([]byte, args[0].Length())
		js.CopyBytesToGo(data, args[0])
		t, err := endgames.Load("the endgame table", data)
		if err != nil {
			return err.Error()
		}
		e.SetEndgames(t)
		return ""
	}))
	select {} // serve for ever
}
