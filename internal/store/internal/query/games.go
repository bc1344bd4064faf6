package query

import ()

func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// seatColumns names the column of each seat's hash; a column name
// cannot be a parameter.
var SeatColumns = [2]string{"seat0", "seat1"}
