package server

import (
	"oanquan/internal/match"
	"oanquan/internal/wire"
	"oanquan/rules"
)

// The JSON of docs/API.md lives in package wire, which the engine in the
// browser (cmd/engine-wasm) shares; these names keep the server's own.

type (
	gameJSON     = wire.Game
	offerJSON    = wire.Offer
	presenceJSON = wire.Presence
	playedJSON   = wire.Played
	storeJSON    = wire.Store
	resultJSON   = wire.Result
	tallyJSON    = wire.Tally
	turnJSON     = wire.Turn
	eventJSON    = wire.Event
	messageJSON  = wire.Message
	hintsJSON    = wire.Hints
	hintJSON     = wire.Hint
)

// createdJSON is the answer to the creation of a game: its state and the
// secret that acts for the creator's seats.
type createdJSON struct {
	gameJSON
	Secret string `json:"secret"`
	Seat   int    `json:"seat"`  // the creator's seat (the first of Seats)
	Seats  []int  `json:"seats"` // every seat the secret acts for
}

func moveList(ms []rules.Move) []string        { return wire.MoveList(ms) }
func toGameJSON(s *match.State) gameJSON       { return wire.GameOf(s) }
func toTurnJSON(t *match.Turn) turnJSON        { return wire.TurnOf(t) }
func toEventJSON(e rules.Event) eventJSON      { return wire.EventOf(e) }
func toMessageJSON(u match.Update) messageJSON { return wire.MessageOf(u) }
