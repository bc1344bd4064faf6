package query

import ()

// nullText is s for a nullable text column, NULL for "".
func NullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}
