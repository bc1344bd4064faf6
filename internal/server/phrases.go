package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"oanquan/internal/store"
	"oanquan/internal/wire"
)

// Preset phrases (issue 21): a player of an online game, on a WebSocket
// that said hello with their seat's secret, sends {"type":"phrase",
// "phrase":ID}; every WebSocket of the game, on every server sharing the
// store, is sent {"type":"phrase","seat":N,"phrase":ID}. The store counts
// them (store.Phrases), so that the limits hold over all the servers,
// and tells the other servers (a Notice with Phrase set, followed by
// follow). Never free text, and no part of the game or its record.

// The limits of a seat's phrases.
const (
	phraseGap  = 3 * time.Second // one per seat at most this often
	phraseMost = 20              // per seat per game
)

// sayPhrase says phrase for the seat WebSocket wc of game g plays, or
// tells wc why not.
func (s *Server) sayPhrase(g *liveGame, wc *wsConn, phrase string) {
	refuse := func(reason string) { wc.offer(messageJSON(wire.PhraseRefused(clip(phrase), reason))) }
	if !slices.Contains(wire.Phrases, phrase) {
		refuse(wire.PhraseUnknown)
		return
	}
	seat := g.connSeat(wc)
	if seat < 0 || !g.m.Policy().Online {
		refuse(wire.PhraseNotAPlayer)
		return
	}
	ph := s.store
	ctx, cancel := context.WithTimeout(s.ctx, saveTimeout)
	defer cancel()
	err := ph.SayPhrase(ctx, g.m.ID(), seat, phrase, s.phraseGap, phraseMost)
	switch {
	case errors.Is(err, store.ErrPhraseLimit):
		refuse(wire.PhraseRateLimited)
		return
	case err != nil:
		s.log.Warn("counting a phrase", "id", g.m.ID(), "err", err)
		refuse(wire.PhraseUnavailable)
		return
	}
	g.sendPhrase(seat, phrase)
}

// sendPhrase sends the phrase said by seat to every WebSocket open on g
// here.
func (g *liveGame) sendPhrase(seat int, phrase string) {
	data := messageJSON(wire.PhraseMessage(seat, phrase))
	g.mu.Lock()
	defer g.mu.Unlock()
	for c := range g.conns {
		c.offer(data)
	}
}

// connSeat returns the seat WebSocket c of g plays, or -1: it watches,
// or has said nothing yet.
func (g *liveGame) connSeat(c *wsConn) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seat, ok := g.conns[c]; ok {
		return seat
	}
	return -1
}

// heardPhrase passes on a phrase said through another server (a
// store.Notice) to the WebSockets of its game here, if it is live here.
func (s *Server) heardPhrase(n store.Notice) {
	if g := s.liveGame(n.Game); g != nil && slices.Contains(wire.Phrases, n.Phrase) {
		g.sendPhrase(n.Seat, n.Phrase)
	}
}

// messageJSON is a WebSocket message as sent.
func messageJSON(m wire.Message) []byte {
	data, err := json.Marshal(m)
	if err != nil {
		panic(err) // the server's own types always marshal
	}
	return data
}

// clip returns the first 24 characters of a phrase refused, which is
// sent back as the sender wrote it, no longer.
func clip(phrase string) string {
	if r := []rune(phrase); len(r) > 24 {
		return string(r[:24])
	}
	return phrase
}
