package postgres

import "context"

// ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()
