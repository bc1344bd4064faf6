package main

import (
	"os"
	"strconv"
	"testing"

	"oanquan/internal/store/pgtest"
)

// TestLoadgenRated runs oanquan loadgen rated small against the real
// server on PostgreSQL with its default limits: 20 accounts made from 7
// source addresses (3 sign-ups an address; from one address all but 3
// would be refused), 10 rated games made by quick pairing and played to
// their end, every one's ratings updated as the API and the database
// show them.
func TestLoadgenRated(t *testing.T) {
	db := pgtest.Start(t)
	u := serveForLoad(t, "--db", db)
	var res ratedResult
	loadgenJSON(t, &res, "rated", "--url", u, "--games", "10", "--rate", "200", "--ramp", "2", "--from", "127.4.0.0/24",
		"--pid", strconv.Itoa(os.Getpid()), "--check-db", db)
	if len(res.Errors) != 0 {
		t.Fatalf("errors %v: %v", res.Errors, res.FirstErrors)
	}
	if res.Accounts != 20 || res.Addresses != 7 || res.Paired != 10 || res.HalfPaired != 0 || res.Aborted != 0 || res.Finished != 10 || res.RatedOver != 10 || res.Interrupted {
		t.Errorf("%d accounts from %d addresses, %d paired (%d half), %d finished, %d ended rated, interrupted %v; want 20 from 7, 10 (0), 10, 10, false",
			res.Accounts, res.Addresses, res.Paired, res.HalfPaired, res.Finished, res.RatedOver, res.Interrupted)
	}
	if res.CheckedGames != 10 || res.CheckedPlayers != 20 {
		t.Errorf("the API shows %d games' ratings and %d players' updated, want 10 and 20", res.CheckedGames, res.CheckedPlayers)
	}
	if res.DBHistoryRows == nil || *res.DBHistoryRows != 20 || res.DBRatingsRows == nil || *res.DBRatingsRows != 20 {
		t.Errorf("in the database: rating_history rows %v, ratings rows %v; want 20 and 20", res.DBHistoryRows, res.DBRatingsRows)
	}
	if res.AtOnce < 1 || res.AtOnce > 10 || res.Moves < 10*2 || res.MeanPlies < 2 {
		t.Errorf("%d at once, %d moves, %v plies a game: want 1 to 10 at once and moves of both seats in each", res.AtOnce, res.Moves, res.MeanPlies)
	}
	if q := res.MoveMs; !(0 < q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= q.Max) {
		t.Errorf("move_ms = %+v, want 0 < p50 <= p90 <= p99 <= max", q)
	}
	if q := res.PairMs; !(0 < q.P50 && q.P50 <= q.Max) || res.ServerCPU == nil || res.SignupSec <= 0 {
		t.Errorf("pair_ms %+v, server CPU %v, sign-ups %v s", q, res.ServerCPU, res.SignupSec)
	}
}
