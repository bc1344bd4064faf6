// Package api is the game's API of docs/API.md with no transport: every
// operation (create, get, move, undo, level, hints, record, review, join
// and the online players' actions), the one table of routes that leads
// to them, the one parser of a game's settings and the one table of
// refusals (kind → status and code). The server (internal/server) serves
// it over HTTP, and the engine in the browser (internal/offline) to the
// page's Web Worker; both answer the same request with the same status
// and JSON, which TestConformance checks (testdata/conformance.json).
//
// A transport finds the route, and gives its operation a Call with a Host:
// where the games live and who asks (the server: live games, the store,
// the seats' secrets; the browser: the games it holds, every seat the
// caller's). Rate limits, body sizes, secrets and the WebSocket are the
// transport's.
//
//	route, id, err := api.Find("POST", "/api/games/abc/moves")
//	if err == nil {
//		resp, err = route.Op(&api.Call{Ctx: ctx, Host: host, ID: id, Body: body})
//	}
//	if err != nil {
//		status, body := api.Describe(err) // the refusal's status and JSON
//		…
//	}
//	// resp.Status, resp.Body (JSON, or a string: text), resp.Header
//
// The operations hold no state of their own and are safe for concurrent
// use as far as the Host is.
package api
