package stores

import "context"

// Ctx is the tests' context: none of them is cancelled from outside.
var ctx = context.Background()
