// The turn pipeline's state machine (turns.js shows what it decides): a
// phase, the turns waiting to be shown, and what each message does to
// them. It touches no page, so that it can be tested on its own.

// queue returns a pipeline's state: phase 'idle', 'sending' (a move is
// sent, its answer awaited) or 'showing' (a turn is on its way on
// screen); the turns waiting; expect, the ply the next turn starts at;
// sent, whether a move's answer is awaited; pending, a state that cuts
// the turn shown short; skip, '' or 'turn' (this turn at once) or 'all'
// (every turn until a person is to move).
export function queue(ply = 0) {
  return { phase: 'idle', queue: [], expect: ply, sent: false, pending: null, skip: '' };
}

// take decides what a turn does: 'old' (shown already), 'jump' (turns
// were missed: show its state at once), 'queue' (shown in its turn).
export function take(q, turn) {
  if (turn.ply < q.expect) return 'old';
  const missed = turn.ply > q.expect;
  q.expect = turn.state.ply;
  if (missed && q.phase !== 'showing') return 'jump';
  q.queue.push(missed ? { state: turn.state, events: [] } : turn);
  return 'queue';
}

// replace decides what a state that may replace the one shown does:
// 'thinking' (the same ply while a turn is shown: only its thinking
// counts), 'cut' (the turn shown ends at once, then the state shows),
// 'back' (shown now, and it took moves back), 'show' (shown now).
export function replace(q, state) {
  if (q.phase === 'showing' || q.queue.length) {
    if (state.ply === q.expect) return 'thinking';
    q.queue = [];
    if (!q.skip) q.skip = 'turn';
    q.pending = state;
    return 'cut';
  }
  const back = state.ply < q.expect;
  q.expect = state.ply;
  return back ? 'back' : 'show';
}

// reset forgets every turn for a new game whose state is state; a turn
// being shown ends at once, and state is shown after it again.
export function reset(q, state) {
  q.queue = [];
  q.expect = state.ply;
  q.skip = '';
  q.sent = false; // a move sent in the game before is not this game's
  if (q.phase === 'sending') q.phase = 'idle';
  if (q.phase === 'showing') { q.skip = 'turn'; q.pending = state; }
}

// undone drops the turns waiting after an undo, whose state is state.
export function undone(q, state) {
  q.queue = [];
  q.expect = state.ply;
}

// seen notes a state shown: no turn before it is shown after it.
export function seen(q, state) {
  q.expect = Math.max(q.expect, state.ply);
}

// skip asks for every turn at once until a person is to move; it says
// whether there was anything to skip (a turn shown, a move sent, the
// computer thinking).
export function skip(q, thinking) {
  if (q.phase === 'idle' && !thinking) return false;
  q.skip = 'all';
  return true;
}

// send notes a move sent (on) or answered (off).
export function send(q, on) {
  q.sent = on;
  if (q.phase !== 'showing') q.phase = on ? 'sending' : 'idle';
}

// next starts showing (or goes on to) the next turn, or returns null
// when none is left, the phase then back to idle or sending.
export function next(q) {
  const turn = q.queue.shift() || null;
  q.phase = turn ? 'showing' : q.sent ? 'sending' : 'idle';
  return turn;
}

// shown ends a turn's showing: it returns the state that cut it short,
// if one did (the turns after it are then dropped).
export function shown(q) {
  if (q.skip === 'turn') q.skip = '';
  const st = q.pending;
  if (!st) return null;
  q.pending = null;
  q.queue = [];
  q.expect = st.ply;
  return st;
}

// settle ends a skip of every turn once a person is to move, or the game
// is over.
export function settle(q, state) {
  if (state && (state.over || (state.legal || []).length) && q.skip === 'all') q.skip = '';
}
