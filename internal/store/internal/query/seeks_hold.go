package query

import ()

// posterBytes returns p, or an empty slice (the column is NOT NULL) for nil.
func PosterBytes(p []byte) []byte {
	if p == nil {
		return []byte{}
	}
	return p
}
