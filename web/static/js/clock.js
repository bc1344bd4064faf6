// A clocked game's clocks as the page shows them (docs/API.md, "Clocks"):
// pure functions of the server's figures and the instant asked about. The
// server is the only timekeeper; the page only counts down from its last
// figures, and computes what each clock shows afresh from them every
// time, so that it never drifts: ticking a frame at a time would add up
// the timer's errors.
//
//   const snap = snapshot(state.clock, performance.now()); // on each state received
//   const { left, first } = showing(snap, performance.now()); // on each frame
//   el.textContent = formatClock(left[0]);

// snapshot keeps a state's clock ("clock" in the JSON: remaining,
// running, firstMoveMs and the time control) with the local instant it
// was received (performance.now(), in milliseconds). null for a game
// without a clock.
export function snapshot(clock, receivedAt) {
  if (!clock) return null;
  return {
    remaining: [clock.remaining[0], clock.remaining[1]],
    running: clock.running ?? null,
    firstMoveMs: clock.firstMoveMs ?? null,
    correspondence: isCorrespondence(clock),
    at: receivedAt,
  };
}

// isCorrespondence says whether a clock is of days per move.
export function isCorrespondence(clock) {
  return Boolean(clock && clock.days);
}

// showing returns what the clocks show at now (the same clock as the
// snapshot's receivedAt): each side's time left, the running one counted
// down from the server's figure, never below zero, and the time left for
// a first move being timed (null when none is). now before the snapshot
// counts as its instant.
export function showing(snap, now) {
  const gone = Math.max(0, now - snap.at);
  const left = [snap.remaining[0], snap.remaining[1]];
  if (snap.running === 0 || snap.running === 1) {
    left[snap.running] = Math.max(0, left[snap.running] - gone);
  }
  const first = snap.firstMoveMs === null ? null : Math.max(0, snap.firstMoveMs - gone);
  return { left, first };
}

// LOW is the time under which a real-time clock warns (and shows tenths).
export const LOW = 10000;

// low says whether a real-time clock showing ms warns: under 10 s.
export function low(ms, correspondence = false) {
  return !correspondence && ms < LOW;
}

const pad = (n) => String(n).padStart(2, '0');

// formatClock writes a real-time clock: "m:ss" ("h:mm:ss" from an hour),
// and with tenths under 10 s ("0:09.4"). Times are cut down, never
// rounded up: the clock reads 0:00.0 only when the time is gone.
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  if (t < LOW) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

// correspondenceParts splits a correspondence clock's time into the two
// largest units worth showing: days and hours from a day, hours and
// minutes from an hour, minutes and seconds under it (cut down).
export function correspondenceParts(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return { days, hours };
  if (hours > 0) return { hours, minutes };
  return { minutes, seconds: s % 60 };
}

// formatCorrespondence writes a correspondence clock ("3d 4h", "5h 12m",
// "7m 30s") with the language's unit letters (the page passes its own).
export function formatCorrespondence(ms, units = { days: 'd', hours: 'h', minutes: 'm', seconds: 's' }) {
  return Object.entries(correspondenceParts(ms)).map(([unit, n]) => `${n}${units[unit]}`).join(' ');
}

// formatTime writes a snapshot's clock showing ms, by its kind.
export function formatTime(snap, ms, units) {
  return snap.correspondence ? formatCorrespondence(ms, units) : formatClock(ms);
}

// take returns the clock snapshot to keep once state arrives at now,
// given the one kept (prev): the state's figures with the instant they
// came, unless they are no news — the same figures again (an HTTP
// answer after the socket's), an older ply, or a game still on after
// one seen over — when prev stays, so that its instant is the earliest.
// null for a game without a clock. The snapshot also keeps the game's
// id, ply, whether it is over and its time control.
export function take(prev, state, now) {
  if (!state || !state.clock) return null;
  const next = snapshot(state.clock, now);
  Object.assign(next, { id: state.id, ply: state.ply, over: !!state.over, control: control(state.clock) });
  if (!prev || prev.id !== state.id) return next;
  if ((prev.over && !next.over) || next.ply < prev.ply) return prev;
  const same = next.ply === prev.ply && next.over === prev.over && next.running === prev.running
    && next.firstMoveMs === prev.firstMoveMs && next.remaining[0] === prev.remaining[0] && next.remaining[1] === prev.remaining[1];
  return same ? prev : next;
}

// control returns a clock's time control alone: {initial, increment}
// in seconds, or {days}.
export function control(clock) {
  if (!clock) return null;
  return isCorrespondence(clock) ? { days: clock.days } : { initial: clock.initial, increment: clock.increment };
}

// tookMs returns how long move i took, from the state's clock once over:
// the server's figure (used, in ms: every move, first moves and
// correspondence included). For a move saved before the server kept it
// (null in used, or no used at all), it is worked out from after (each
// side's time left after each move) and movers (the seat of each move):
// the time lost plus the increment; null when that cannot say either (a
// first move of each side, a correspondence game, figures missing).
export function tookMs(clock, movers, i) {
  if (!clock) return null;
  if (Array.isArray(clock.used) && typeof clock.used[i] === 'number') return clock.used[i];
  if (isCorrespondence(clock) || !Array.isArray(clock.after) || i < 2 || i >= clock.after.length) return null;
  const p = movers[i];
  if (p !== 0 && p !== 1) return null;
  return Math.max(0, clock.after[i - 1][p] - clock.after[i][p] + (clock.increment || 0) * 1000);
}

// awaySince returns, for a state received at the local instant at, the
// local instant each seat's player left the game as the server counts it
// (its clock's awayMs: how long ago, when it made the state), or null for
// a seat not away.
export function awaySince(state, at) {
  const a = state && state.clock && state.clock.awayMs;
  return [0, 1].map((p) => (a && typeof a[p] === 'number' ? at - a[p] : null));
}

// spokenParts splits a time for reading out: hours, minutes and seconds
// (whole, cut down) in real time, days and hours (or the next units
// down) in correspondence. Units at zero are left out, but one is kept.
export function spokenParts(ms, correspondence = false) {
  if (correspondence) return correspondenceParts(ms);
  const s = Math.max(0, Math.floor(ms / 1000));
  const parts = { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 };
  const out = {};
  for (const [unit, n] of Object.entries(parts)) if (n > 0) out[unit] = n;
  return Object.keys(out).length ? out : { seconds: 0 };
}

// urgency orders games for "Your games": the clocked games where it is
// seat's move first, the least time left first (the time left for the
// side to move, or for its first move, as the state gave it); the rest
// after, in their order. It returns a sort key: lower is sooner.
export function urgency(state, seat) {
  if (!state || state.over || !state.clock || seat === null || seat === undefined || state.toMove !== seat) return Infinity;
  return Math.max(0, state.clock.firstMoveMs ?? state.clock.remaining[seat]);
}
