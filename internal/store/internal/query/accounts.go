package query

import (
	"encoding/json"
	"oanquan/internal/rating"
	"oanquan/internal/store"
)

// parseRatingChange reads a game's rating_change column ("" for none).
func ParseRatingChange(s string) (*store.RatingChange, error) {
	if s == "" {
		return nil, nil
	}
	var rc store.RatingChange
	if err := json.Unmarshal([]byte(s), &rc); err != nil {
		return nil, err
	}
	return &rc, nil
}

// ratingJSON is a rating as the history keeps it.
func RatingJSON(r rating.Rating) string {
	b, _ := json.Marshal(r) // plain numbers and a time always marshal
	return string(b)
}
