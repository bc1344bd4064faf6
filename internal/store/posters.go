package store

import (
	"oanquan/internal/rating"
)

// Poster is an account as the lobby shows it: its name and its ratings
// by speed name (a speed it has no rated game in is absent).
type Poster struct {
	Username string
	Ratings  map[string]rating.Rating
}
