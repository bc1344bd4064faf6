// Package match runs live games of Ô Ăn Quan: the rules.Game, who plays
// which seat, the computer player's moves and the updates sent to anyone
// watching. It knows nothing of HTTP or storage; package server puts it
// on the web.
//
//	m, err := match.New(match.Config{Mode: match.AI, Level: ai.Easy})
//	sub, _ := m.Subscribe() // first update: the state
//	defer sub.Close()
//	turn, err := m.Play(move, nil) // the human's move
//	for u := range sub.C { … }     // turns, the computer thinking, states
//	m.Close()
//
// What a mode allows — who plays, what undo takes back, hints, the
// players' offers — is its Policy, chosen once by New; the match decides
// by the policy, never by the mode's name, so a new mode is a new Policy.
//
// In AI mode the computer's search runs in its own goroutine with a
// context and never holds the match's lock: the human can undo, change
// the level or leave while it thinks, and each of these cancels it.
//
// # Locks
//
// A Match has one mutex. Each method takes it once, with defer, and
// leaves the work that needs it to …Locked helpers. While it is held the
// match may
//   - call Config.Commit and Sync's load, so that changes are saved in
//     the order they are made. These must not call the match (the mutex
//     is not reentrant), and any lock they take comes after the match's:
//     no one may call the match while holding such a lock;
//   - send to the subscribers' channels, never waiting: a subscriber
//     whose buffer is full is dropped. Subscribers read without the lock
//     and may call the match (Subscription.Close takes the lock);
//   - start the computer's search goroutine.
//
// It is never held while an Engine runs: think searches without it and
// takes it only to play the move found, Hints takes what it searches
// under it and searches after, and Close waits for the search goroutines
// after letting it go.
//
// A Pool has one mutex too, a leaf: held only to queue and take jobs,
// never while a job runs, and never together with a match's, since the
// engine is only called without the match's lock.
package match

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"time"

	"oanquan/ai"
	"oanquan/rules"
)

// Config is what a match is created with. The zero Config is an AI match
// at Easy, the human in seat 0, under the standard rules.
type Config struct {
	ID       string
	Mode     Mode            // "": AI
	Level    ai.Level        // the computer's strength in AI mode
	Human    rules.Player    // the human's seat in AI mode
	Rules    rules.Rules     // variants, and who moves first
	Start    *rules.Position // nil: Rules.Start()
	Moves    []rules.Move    // moves already played from Start, replayed by New
	Status   Status          // an online game's status, as saved
	Seed     uint64          // the computer's seed: the same seed, the same choices
	Created  time.Time       // when the game began, for its record
	Engine   Engine          // nil: package ai
	MoveTime time.Duration   // the computer's time per move; 0: the level's default
	HintTime time.Duration   // the time for hints; 0: DefaultHintTime
	// Commit, if set, is called with every change to the game (a move,
	// an undo, a level change) under the match's lock, after the change
	// is made and before anyone is told of it: the place to save it. If
	// it returns an error the change is taken back and the request that
	// made it fails with that error (a computer's move is dropped: the
	// game waits for it, and a later search plays it). So nothing is
	// answered or broadcast that is not saved.
	Commit func(Change) error
	// Clock is the time control of a clocked game (docs/API.md); nil:
	// none. ClockState is its clock as saved; nil: a new one, not ready.
	Clock      *TimeControl
	ClockState *Clock
	// ClockAfter is each side's time left after each move played, as
	// saved (the record's and the replay's).
	ClockAfter [][2]time.Duration
	// ClockUsed is the time each move took, beside ClockAfter, as saved;
	// -1 for a move saved without it.
	ClockUsed []time.Duration
	// Timing is how the server keeps time; Now, if set, is its clock
	// (tests set both).
	Timing Timing
	Now    func() time.Time
	// OnDue, if set, is called by a clocked match's timer, without its
	// lock, when something is due by the clock alone: the server takes
	// the game's lease and calls Tick. nil: the timer calls Tick.
	OnDue func(*Match)
	// Rated marks a rated game (issue 21): the match plays it as any
	// other and only reports it (State.Rated); its host rates it when it
	// ends (Change.Winner, Change.Ratings). Ratings is what the game did
	// to its players' ratings, once it ended rated, as saved.
	Rated   bool
	Ratings *Ratings
}

// Ratings is what a rated game did to its players' ratings in its speed,
// as its host reports it: the match only carries it to its state, for
// the players to see. Ratings are the host's business, not the match's.
type Ratings struct {
	Speed  string
	Before [2]float64
	After  [2]float64
}

// ChangeKind says what a Change is.
type ChangeKind int

// The kinds of change.
const (
	Moved     ChangeKind = iota // a move was played: Index, Move
	Undone                      // moves were taken back: Index moves are left
	LevelSet                    // the computer's level changed: Level
	StatusSet                   // an online game's status changed: Status
	ClockSet                    // a clocked game became ready: Clock
)

// String names the kind, for logs.
func (k ChangeKind) String() string {
	switch k {
	case Moved:
		return "move"
	case Undone:
		return "undo"
	case LevelSet:
		return "level"
	case StatusSet:
		return "status"
	case ClockSet:
		return "clock"
	}
	return "unknown"
}

// Change is one change to a match, as Config.Commit sees it.
type Change struct {
	ID      string
	Kind    ChangeKind
	Index   int        // Moved: the move's index from the start (0 for the first); Undone: how many moves are left; StatusSet: how many moves were played
	Move    rules.Move // Moved
	Level   ai.Level   // LevelSet
	Status  Status     // StatusSet: the new status
	From    Status     // StatusSet: the status it replaces, as saved
	Waiting bool       // after the change, the computer is to move
	Over    bool       // after the change, the game is over (by the rules or its players)
	// Winner is, once Over, who won: 0 or 1, or -1 for a draw (and for
	// an aborted game, which has no winner).
	Winner int
	// Rated is Config.Rated: the host rates the game when it ends.
	Rated bool
	// Ratings, for the change that ends a rated game, is where the host
	// reports the ratings it gave (setting Speed); nil for other changes.
	Ratings *Ratings
	// Clock is a clocked game's clock after a move (Moved) or once it is
	// ready (ClockSet), to be saved with the change; nil: no clock.
	// Deadline is when its side to move runs out of time after the
	// change (zero: nothing runs), as the server that saves it keeps
	// time.
	Clock    *Clock
	Deadline time.Time
	Control  *TimeControl // a clocked game's time control, with Clock
	// Used is, with a clocked Moved, the time the move took (Clock.Took).
	Used time.Duration
	// Flag marks a StatusSet made by the clock (the game ended on time,
	// or aborted at a first move's limit), with Index the number of
	// moves it counted: it is saved only if no move was saved since.
	// (With a clocked Moved, From is the status the move was played on:
	// it is saved only if the status saved is still that one.)
	Flag bool
}

// DefaultHintTime is how long Hints searches when Config.HintTime is zero.
const DefaultHintTime = 500 * time.Millisecond

// subBuffer is how many updates a subscriber may fall behind before it is
// dropped. A turn is one update, so this is many turns' worth.
const subBuffer = 32

// Match is one live game. Create one with New; it is safe for concurrent
// use. Close it when done, to stop the computer's search.
type Match struct {
	cfg    Config // as given, but for Level and the Moves (which live in game)
	pol    Policy // the mode's
	engine Engine
	ctx    context.Context // canceled by Close: the parent of every search
	stop   context.CancelFunc
	wg     sync.WaitGroup // the search goroutines

	mu     sync.Mutex
	game   *rules.Game
	level  ai.Level
	cancel context.CancelFunc // the running search's, or nil
	// gen counts searches started and canceled: a search whose gen is
	// no longer current was canceled, and its result is thrown away.
	gen      uint64
	subs     map[*Subscription]struct{}
	closed   bool
	status   Status   // an online game's
	presence Presence // who is connected, as the server says
	last     *Turn    // the last update sent, if a turn (subscribe.go)
	clk      *clocked // the clock; nil: none
	// ratings is what the game did to the ratings, once it ended rated
	// (never changed after: a value states share).
	ratings *Ratings
}

// New creates a match and replays cfg.Moves. If the computer is to move,
// it starts thinking at once.
func New(cfg Config) (*Match, error) {
	pol, err := policyOf(cfg.Mode, cfg.Clock != nil)
	if err != nil {
		return nil, err
	}
	if cfg.Clock != nil {
		if err := validControl(*cfg.Clock); err != nil {
			return nil, err
		}
	}
	cfg.Mode = pol.Mode
	if cfg.Level < ai.Easy || cfg.Level > ai.Hard {
		return nil, refuse(ErrInvalid, "unknown level %d", cfg.Level)
	}
	if cfg.Human > rules.Player1 {
		return nil, refuse(ErrInvalid, "seat %d: want 0 or 1", cfg.Human)
	}
	start := cfg.Rules.Start()
	if cfg.Start != nil {
		start = *cfg.Start
	}
	g, err := rules.NewGame(cfg.Rules, start)
	if err != nil {
		return nil, refuse(ErrInvalid, "start position: %v", err)
	}
	for _, mv := range cfg.Moves {
		if _, err := g.Play(mv, nil); err != nil {
			return nil, refuse(ErrInvalid, "replaying the moves: %v", err)
		}
	}
	m := &Match{cfg: cfg, pol: pol, engine: cfg.Engine, game: g, level: cfg.Level, subs: make(map[*Subscription]struct{}), status: cfg.Status, clk: newClocked(cfg), ratings: cfg.Ratings}
	m.cfg.Moves = nil
	m.cfg.Start = &start
	if m.engine == nil {
		m.engine = AIEngine{}
	}
	if m.cfg.HintTime == 0 {
		m.cfg.HintTime = DefaultHintTime
	}
	m.ctx, m.stop = context.WithCancel(context.Background())
	m.Resume()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armLocked()
	return m, nil
}

// ID returns the match's id, as given in Config.
func (m *Match) ID() string { return m.cfg.ID }

// Mode returns the match's mode.
func (m *Match) Mode() Mode { return m.cfg.Mode }

// Policy returns the policy of the match's mode.
func (m *Match) Policy() Policy { return m.pol }

// Config returns what New needs to rebuild the match as it stands: the
// settings, the current level and the moves played.
func (m *Match) Config() Config {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cfg
	c.Level = m.level
	start := *m.cfg.Start
	c.Start = &start
	c.Moves = slices.Clone(m.game.Moves())
	c.Status = m.statusLocked()
	if m.clk != nil {
		clk := m.clk.c
		c.ClockState = &clk
		c.ClockAfter = slices.Clone(m.clk.after)
		c.ClockUsed = slices.Clone(m.clk.used)
	}
	return c
}

// Close cancels the computer's search, waits for it to end, and closes
// every subscription. Later calls to the match's methods return
// ErrClosed. Close is idempotent.
func (m *Match) Close() {
	m.shut()
	m.stop()
	m.wg.Wait() // without the lock, which a search ending takes
}

// shut marks the match closed, cancels the computer's search and closes
// every subscription.
func (m *Match) shut() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	m.cancelSearchLocked()
	m.stopClockLocked()
	for s := range m.subs {
		m.dropLocked(s)
	}
}

// State is a snapshot of a match. Its slices are its own.
type State struct {
	ID       string
	Mode     Mode
	Level    ai.Level
	Human    rules.Player
	Rules    rules.Rules
	Start    rules.Position
	Position rules.Position // the current position; once over, before the final sweep
	Moves    []rules.Move   // the moves played
	Computer []bool         // for each move, whether the computer played it
	CanUndo  bool           // Undo would take something back now
	Legal    []rules.Move   // the moves a human may play now: none while the computer is to move
	Thinking bool           // the computer is choosing a move
	End      rules.End      // how the game ended by the rules, or EndNone
	Status   Status         // an online game's: how its players ended it, the offer waiting
	Presence Presence       // who is connected
	Result   rules.Result   // the final count, once over
	// CanHint says Hints would be answered now: not online, not over, a
	// human to move.
	CanHint bool
	// CanAbort and CanTakeback say, for each seat of an online game,
	// whether Abort would end the game now (the seat has not moved) and
	// whether a takeback offer would be made (the game goes on and the
	// seat has a move to take back). Both false in other modes.
	CanAbort    [2]bool
	CanTakeback [2]bool
	// CanClaim says, for each seat of a real-time game, whether its
	// player may claim the game now: the other has had no connection
	// for Timing.ClaimAfter.
	CanClaim [2]bool
	// Clock is a clocked game's clock, as the state was made; nil: none.
	Clock *ClockState
	// Positions are the game's positions from the start to the current
	// one, once it is over (for a replay); nil before.
	Positions []rules.Position
	// Rated is Config.Rated: the game is rated. Ratings is what it did
	// to its players' ratings once it ended; nil before.
	Rated   bool
	Ratings *Ratings
}

// moverOf returns who played move i (0 for the first) of a game from
// start: turns alternate, whatever the move did.
func moverOf(start rules.Position, i int) rules.Player {
	return start.ToMove ^ rules.Player(i&1)
}

// Mover returns who played move i of s.Moves.
func (s *State) Mover(i int) rules.Player { return moverOf(s.Start, i) }

// Over reports whether the game has ended, by the rules or by its players.
func (s *State) Over() bool { return s.End != rules.EndNone || s.Status.Outcome.Kind != "" }

// State returns a snapshot of the match.
func (m *Match) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stateLocked()
}

func (m *Match) stateLocked() State {
	s := State{
		ID:       m.cfg.ID,
		Mode:     m.cfg.Mode,
		Level:    m.level,
		Human:    m.cfg.Human,
		Rules:    m.game.Rules(),
		Start:    m.game.Start(),
		Position: m.game.Position(),
		Moves:    slices.Clone(m.game.Moves()),
		Thinking: m.thinkingLocked(),
		End:      m.game.End(),
		Status:   m.statusLocked(),
		Presence: m.presence,
		Clock:    m.clockStateLocked(),
		Rated:    m.cfg.Rated,
		Ratings:  m.ratings,
	}
	if s.Moves == nil {
		s.Moves = []rules.Move{}
	}
	s.Computer = make([]bool, len(s.Moves))
	for i := range s.Computer {
		s.Computer[i] = m.pol.ComputerPlays(s.Mover(i), m.cfg.Human)
	}
	m.allowedLocked(&s)
	if m.overLocked() {
		s.Positions = m.game.History()
		s.Result = m.resultLocked(s.Status.Outcome)
	}
	return s
}

// allowedLocked fills in what s's players may do now: the legal moves and
// the Can… fields, each asked of the check that refuses the request.
func (m *Match) allowedLocked(s *State) {
	s.Legal = []rules.Move{}
	if !m.overLocked() && !m.computerToMoveLocked() {
		s.Legal = m.game.LegalMoves(s.Legal)
	}
	s.CanUndo = m.undoCountLocked() > 0
	s.CanHint = m.pol.Hints && m.hintsRefusedLocked() == nil
	if !m.pol.Online {
		return // false outside online games, without making their refusals
	}
	for p := range rules.Player(2) {
		s.CanAbort[p] = m.abortRefusedLocked(p) == nil
		s.CanTakeback[p] = m.takebackRefusedLocked(p) == nil
	}
	if m.clk != nil {
		s.CanClaim = m.claimsLocked()
		m.clk.shown = s.CanClaim
	}
}

// resultLocked returns the final count of the game, which is over: by
// the rules, or by its players (outcome), the count as it stands and the
// winner theirs.
func (m *Match) resultLocked(outcome Outcome) rules.Result {
	if m.game.Over() {
		return m.game.Result()
	}
	pos := m.game.Position()
	r := pos.Count(rules.EndNone)
	r.Winner = -1
	if k := outcome.Kind; k == OutcomeResign || k == OutcomeTimeout || k == OutcomeAbandon {
		r.Winner = int(outcome.Player.Other())
	}
	return r
}

// turnLocked returns the turn of mv, played from before with events;
// its State is the match's now.
func (m *Match) turnLocked(before rules.Position, mv rules.Move, events []rules.Event) Turn {
	return Turn{
		Ply:      int(before.Ply),
		Player:   before.ToMove,
		Move:     mv,
		Computer: m.pol.ComputerPlays(before.ToMove, m.cfg.Human),
		Events:   events,
		State:    m.stateLocked(),
	}
}

// Turn is one move played and what it did.
type Turn struct {
	Ply      int          // the ply the move was played at
	Player   rules.Player // who moved
	Move     rules.Move
	Computer bool          // the computer played it
	Events   []rules.Event // what happened, in order, ending the game maybe
	State    State         // the state after the turn
}

// Play plays the human's move mv. If ply is not nil, the move is refused
// with ErrStale unless the game is at that ply: a client's guard against
// playing on a board it has not seen. In AI mode the computer starts
// thinking about its reply before Play returns.
func (m *Match) Play(mv rules.Move, ply *int) (Turn, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkHumanMoveLocked(mv, ply); err != nil {
		return Turn{}, err
	}
	return m.playLocked(mv)
}

func (m *Match) checkHumanMoveLocked(mv rules.Move, ply *int) error {
	pos := m.game.Position()
	switch {
	case m.closed:
		return refuse(ErrClosed, "the game has been closed")
	case m.overLocked():
		return refuse(ErrGameOver, "move %v: the game is over", mv)
	case ply != nil && *ply != int(pos.Ply):
		return refuse(ErrStale, "move %v was meant for ply %d, but the game is at ply %d", mv, *ply, pos.Ply)
	case m.computerToMoveLocked():
		return refuse(ErrNotYourTurn, "move %v: it is the computer's turn", mv)
	}
	if err := pos.Legal(mv); err != nil {
		return &Error{Kind: ErrIllegalMove, Msg: err.Error()}
	}
	return nil
}

// playLocked plays the legal move mv, commits it, sends the turn to the
// subscribers, and starts the computer thinking if it is to move next.
// If the commit fails, the move is taken back and nothing is sent.
func (m *Match) playLocked(mv rules.Move) (Turn, error) {
	pos := m.game.Position()
	index := len(m.game.Moves())
	clk, used, err := m.clockAfterLocked()
	if err != nil {
		return Turn{}, err
	}
	var tr rules.Trace
	if _, err := m.game.Play(mv, &tr); err != nil {
		panic("match: playLocked with an illegal move: " + err.Error()) // the callers checked
	}
	if err := m.commitLocked(Change{Kind: Moved, Index: index, Move: mv, Clock: clk, Deadline: m.deadlineOfLocked(clk), Used: used}); err != nil {
		m.game.Undo(1)
		return Turn{}, err
	}
	m.setClockLocked(clk)
	if m.clk != nil {
		m.clk.after = append(m.clk.after[:min(index, len(m.clk.after))], clk.Remaining)
		for len(m.clk.used) < index {
			m.clk.used = append(m.clk.used, -1)
		}
		m.clk.used = append(m.clk.used[:index], used)
	}
	thinking := m.startSearchLocked()
	turn := m.turnLocked(pos, mv, tr.Events)
	m.broadcastLocked(Update{Kind: TurnUpdate, Turn: &turn})
	if thinking {
		m.broadcastLocked(Update{Kind: ThinkingUpdate, Thinking: true})
	}
	return turn, nil
}

// commitLocked passes c, completed with the match's id, whether the
// computer is now to move and whether the game is over, to Config.Commit.
func (m *Match) commitLocked(c Change) error {
	if m.cfg.Commit == nil {
		return nil
	}
	c.ID, c.Rated = m.cfg.ID, m.cfg.Rated
	c.Waiting = m.computerToMoveLocked()
	if c.Clock != nil && m.clk != nil {
		tc := m.clk.tc
		c.Control = &tc
		if c.Kind == Moved {
			c.From = m.status
		}
	}
	// A status is set after its commit; a move is played before.
	outcome := m.status.Outcome
	if c.Kind == StatusSet {
		outcome = c.Status.Outcome
	}
	c.Over = m.game.Over() || outcome.Kind != ""
	if c.Over {
		c.Winner = m.resultLocked(outcome).Winner
	}
	if c.Over && m.cfg.Rated && m.ratings == nil {
		c.Ratings = new(Ratings)
	}
	if err := m.cfg.Commit(c); err != nil {
		return err
	}
	if c.Ratings != nil && c.Ratings.Speed != "" {
		m.ratings = c.Ratings
	}
	return nil
}

// Undo takes back moves: in AI mode the human's last move and the
// computer's replies after it (canceling the computer's search if it is
// thinking), in local mode the last move. It returns ErrNothingToUndo when
// there is no such move.
func (m *Match) Undo() (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return State{}, refuse(ErrClosed, "the game has been closed")
	}
	if m.pol.Undo == UndoNone {
		return State{}, refuse(ErrConflict, "in a game between two players online, ask the other player: offer a takeback")
	}
	n := m.undoCountLocked()
	if n == 0 {
		return State{}, refuse(ErrNothingToUndo, "there is no move of yours to take back")
	}
	if err := m.undoLocked(n); err != nil {
		return State{}, err
	}
	m.cancelSearchLocked()
	m.startSearchLocked()
	return m.publishLocked(), nil
}

// undoLocked takes back the last n moves and commits that; if the commit
// fails, it plays them again.
func (m *Match) undoLocked(n int) error {
	moves := slices.Clone(m.game.Moves())
	m.game.Undo(n)
	if err := m.commitLocked(Change{Kind: Undone, Index: len(moves) - n}); err != nil {
		for _, mv := range moves[len(moves)-n:] {
			m.game.Play(mv, nil)
		}
		return err
	}
	return nil
}

// undoCountLocked returns how many moves Undo takes back, 0 for none.
func (m *Match) undoCountLocked() int {
	return m.pol.undoCount(m.game.Start(), len(m.game.Moves()), m.cfg.Human)
}

// SetLevel changes the computer's strength at once: if it is thinking,
// its search starts again at the new level.
func (m *Match) SetLevel(l ai.Level) (State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return State{}, refuse(ErrClosed, "the game has been closed")
	}
	if l < ai.Easy || l > ai.Hard {
		return State{}, refuse(ErrInvalid, "unknown level %d", l)
	}
	if !m.pol.Level {
		return State{}, refuse(ErrInvalid, "a game between two players has no computer level")
	}
	if err := m.commitLocked(Change{Kind: LevelSet, Level: l}); err != nil {
		return State{}, err
	}
	m.level = l
	if m.thinkingLocked() {
		m.cancelSearchLocked()
		m.startSearchLocked()
	}
	return m.publishLocked(), nil
}

// publishLocked sends the state to the subscribers and returns it.
func (m *Match) publishLocked() State {
	s := m.stateLocked()
	m.broadcastLocked(Update{Kind: StateUpdate, State: &s})
	return s
}

// Hints scores every legal move for the human to move, best first. It
// searches outside the match's lock, for at most Config.HintTime or until
// ctx is done.
func (m *Match) Hints(ctx context.Context) ([]ai.Hint, error) {
	pos, lim, err := m.hintSearch()
	if err != nil {
		return nil, err
	}
	return m.engine.Hints(ctx, pos, lim)
}

// hintSearch returns what Hints searches, taken under the lock, or why
// there are no hints now.
func (m *Match) hintSearch() (rules.Position, ai.Limits, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.hintsRefusedLocked(); err != nil {
		return rules.Position{}, ai.Limits{}, err
	}
	lim := ai.Limits{Level: ai.Hard, MoveTime: m.cfg.HintTime, Seed: m.cfg.Seed, Rules: m.game.Rules(), History: m.game.History()}
	return m.game.Position(), lim, nil
}

// hintsRefusedLocked returns why Hints would be refused now, or nil.
func (m *Match) hintsRefusedLocked() error {
	switch {
	case m.closed:
		return refuse(ErrClosed, "the game has been closed")
	case m.overLocked():
		return refuse(ErrGameOver, "no hints: the game is over")
	case !m.pol.Hints:
		return refuse(ErrInvalid, "no hints in a game between two players online")
	case m.computerToMoveLocked():
		return refuse(ErrNotYourTurn, "no hints: it is the computer's turn")
	}
	return nil
}

// replayLocked plays moves from the game's start on a game of its own, and
// returns it; an illegal move is an ErrInvalid naming the saved move.
func (m *Match) replayLocked(moves []rules.Move) (*rules.Game, error) {
	g, err := rules.NewGame(m.game.Rules(), m.game.Start())
	if err != nil {
		return nil, err
	}
	for i, mv := range moves {
		if _, err := g.Play(mv, nil); err != nil {
			return nil, refuse(ErrInvalid, "saved move %d (%v): %v", i, mv, err)
		}
	}
	return g, nil
}

// Saved is what Sync reads of a saved game.
type Saved struct {
	Moves  []rules.Move // the moves played from the start
	Level  ai.Level
	Status Status
	Clock  *Clock // a clocked game's; nil: as it is
	// ClockAfter is each side's time left after each move, with Clock,
	// and ClockUsed the time each took (-1: not saved).
	ClockAfter [][2]time.Duration
	ClockUsed  []time.Duration
	// Ratings is what a rated game did to the ratings, once ended; nil:
	// as it is.
	Ratings *Ratings
}

// Sync brings the match to the saved game, which another server may have
// changed: load returns the moves played from the start and the level,
// as saved. It is called under the match's lock, so that no change of
// this match's own comes between the reading and the catching up. Moves
// added elsewhere reach the subscribers as turns, an undo or a new level
// as a state; the computer starts thinking if it is now to move. Sync
// commits nothing. It fails, changing nothing, if load fails, a saved
// move is illegal, or the save has a clock and this match none
// (ErrNoClock).
func (m *Match) Sync(load func() (Saved, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return refuse(ErrClosed, "the game has been closed")
	}
	saved, err := load()
	if err != nil {
		return err
	}
	if m.clk == nil && saved.Clock != nil {
		// This copy was made from a save that had no clock yet; it
		// cannot keep the game's time, nor save its moves with it.
		return ErrNoClock
	}
	moves, level := saved.Moves, saved.Level
	cur := slices.Clone(m.game.Moves())
	k := 0
	for k < len(cur) && k < len(moves) && cur[k] == moves[k] {
		k++
	}
	newStatus := !reflect.DeepEqual(saved.Status, m.status)
	newClock := m.clk != nil && saved.Clock != nil && *saved.Clock != m.clk.c
	newRatings := saved.Ratings != nil && m.ratings == nil
	if newRatings {
		m.ratings = saved.Ratings
	}
	if k == len(cur) && k == len(moves) && level == m.level && !newStatus && !newClock && !newRatings {
		return nil
	}
	defer m.armLocked() // the clock, the moves or the status changed
	if newClock {
		m.clk.c = *saved.Clock
	}
	if m.clk != nil && saved.Clock != nil {
		m.clk.after = slices.Clone(saved.ClockAfter)
		m.clk.used = slices.Clone(saved.ClockUsed)
	}
	// Check the new moves on a copy first, so that a bad save changes
	// nothing here.
	if _, err := m.replayLocked(moves); err != nil {
		return err
	}
	m.cancelSearchLocked()
	undone := k < len(cur)
	m.game.Undo(len(cur) - k)
	for _, mv := range moves[k:] {
		pos := m.game.Position()
		var tr rules.Trace
		m.game.Play(mv, &tr)
		if undone {
			continue
		}
		turn := m.turnLocked(pos, mv, tr.Events)
		m.broadcastLocked(Update{Kind: TurnUpdate, Turn: &turn})
	}
	if undone || level != m.level || newStatus || newClock && k == len(moves) || newRatings && k == len(moves) {
		m.level = level
		m.status = saved.Status
		m.publishLocked()
	}
	if m.startSearchLocked() {
		m.broadcastLocked(Update{Kind: ThinkingUpdate, Thinking: true})
	}
	return nil
}
