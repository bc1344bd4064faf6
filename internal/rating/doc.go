// Package rating rates players with Glicko-2 and sorts time controls into
// speeds, one rating per speed (issue 21).
//
// # Glicko-2
//
// The method is Mark E. Glickman's, as his "Example of the Glicko-2
// system" (Boston University, 2013, revised 2022;
// http://www.glicko.net/glicko/glicko2.pdf) gives it; this code was
// written from that description. A player has three numbers: a rating r
// (1500 for a new player), a rating deviation RD saying how uncertain it
// is (350 for a new player: the true strength is within r ± 2 RD with 95%
// confidence), and a volatility σ saying how erratic the player's results
// are (0.06 to begin with). In plain words, for one rating period:
//
//  1. Step 2: move to the Glicko-2 scale, μ = (r − 1500)/173.7178 and
//     φ = RD/173.7178, for the player and each opponent.
//  2. Step 3: for each opponent, g(φj) = 1/√(1 + 3φj²/π²) discounts what
//     a game against an uncertain opponent tells, and
//     E = 1/(1 + exp(−g(φj)(μ − μj))) is the score the player was
//     expected to make. v, the variance of the rating the results alone
//     would give, is 1/Σ g² E(1 − E): small when the games were
//     informative.
//  3. Step 4: Δ = v Σ g (s − E), the improvement the results suggest,
//     s being the actual score (1, ½ or 0).
//  4. Step 5: the new volatility σ′ = e^(A/2), A being the root of
//     f(x) = eˣ(Δ² − φ² − v − eˣ)/(2(φ² + v + eˣ)²) − (x − ln σ²)/τ²,
//     found by the Illinois algorithm (a regula falsi that halves the
//     value at an end kept twice) to the paper's tolerance of 0.000001.
//     Results far from expectation (Δ² large beside φ² + v) raise it. The
//     system constant τ limits how fast it moves; this package uses
//     τ = 0.5 (see Tau for why).
//  5. Step 6: the period itself adds uncertainty: φ* = √(φ² + σ′²).
//  6. Step 7: the games remove some: φ′ = 1/√(1/φ*² + 1/v), and the
//     rating moves by the surprise of each game weighted by the new
//     uncertainty: μ′ = μ + φ′² Σ g (s − E).
//  7. Step 8: back to the familiar scale, r′ = 173.7178 μ′ + 1500 and
//     RD′ = 173.7178 φ′.
//
// A player who plays no game in a period keeps r and σ, and φ grows to
// √(φ² + σ²).
//
// # Rating periods on a server that rates game by game
//
// As lichess does, every rated game is a rating period of its own for
// each of the two players, rated from both ratings as they stood before
// the game (System.Game); System.Update also takes several results at
// once, as one period. Time between a player's games counts as periods
// without games, in fractions: after an idle time d, φ² has grown by
// (d / IdlePeriod) σ², IdlePeriod being two days, and RD never passes
// 350 (System.AsOf). So RD shrinks as a player plays, down to about 60
// for one who plays game after game against settled opponents (67 with
// a game a day), and grows back while they are away: a player at RD 60
// is provisional again after about five months and back at 350 after six
// years. A rating is provisional, shown with "?" as on lichess, while RD
// is above 110.
//
// Because each game is a period, Step 6 adds σ′² for each game: a game
// always leaves RD below what the period without it would, but a settled
// player meeting a newcomer (RD 350) tells so little that RD can end a
// fraction higher than before (60 to 60.48). Glickman advises periods of
// ten or more games per player; one game per period is how game-by-game
// servers such as lichess apply it, and its cost is volatility that hardly moves
// (0.0599 to 0.0601 over 20,000 simulated games at τ = 0.5).
//
// Beyond the paper, ratings are kept within 400 and 4000 and volatility
// within 0.01 and 0.1, so that no input gives an infinite or meaningless
// figure; ordinary play never reaches these bounds. Update refuses a
// rating outside them with an *InputError naming the field.
//
// # Speeds
//
// A time control's speed follows the length it lets a game run for each
// player, initial time + N × increment, N being the moves each player
// makes in a typical game. lichess takes N = 40 for chess. Ô Ăn Quan's
// games are far shorter: in 440 games between the repository's computer
// players (Medium against Medium, Medium against Hard at 100 ms a move,
// Hard against Hard, with `oanquan arena … --verbose`, counting the two
// opening moves) the median was 10 moves each (quartiles 7 and 13; 11
// between Mediums, 9 Medium against Hard, 8 between Hards), so
// MovesPerPlayer is 10. The bounds are lichess's: bullet under 3 minutes,
// blitz under 8, rapid under 25, classical beyond, for they say how long
// a player sits at a game, not how many moves it takes. Issue 20's
// presets then fall as in chess: 1+0 bullet, 3+2 and 5+3 blitz, 10+5 and
// 15+10 rapid, 30+0 classical, and 1, 3, 7 or 14 days correspondence.
//
// The package does no I/O and reads no clock: callers pass the moment of
// each game.
package rating
