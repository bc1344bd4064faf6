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
