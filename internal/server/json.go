package server

import "oanquan/internal/wire"

// The JSON of docs/API.md lives in package wire, which the engine in the
// browser (cmd/engine-wasm) shares.

// createdJSON is the answer to the creation of a game: its state and the
// secret that acts for the creator's seats.
type createdJSON struct {
	wire.Game
	Secret string `json:"secret"`
	Seat   int    `json:"seat"`  // the creator's seat (the first of Seats)
	Seats  []int  `json:"seats"` // every seat the secret acts for
}
