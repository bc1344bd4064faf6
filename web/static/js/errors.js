// The server's refusals (docs/API.md): APIError, thrown by api.js and by
// the engine in the browser (offline/local.js), and their words.

// detail: the error's body (field, reason, min, max: docs/API.md)
export class APIError extends Error {
  constructor(status, code, message, retryAfter, state) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, for rate_limited
    this.state = state; // the game as it stands, with a 409 for a past ply
  }
}

// problem says what went wrong with a call in the player's terms: the
// key of a message (i18n) that says what to do, and its value n; never
// the error's own text, which is for developers. An error that is not an
// APIError is a server out of reach.
export function problem(e) {
  if (!(e instanceof APIError)) return { key: 'error.network' };
  const key = {
    illegal_move: 'error.illegal', rate_limited: 'error.rateLimited', not_your_seat: 'watch.note',
    not_your_turn: 'error.notYourTurn', game_over: 'error.over', conflict: 'error.conflict',
    not_found: 'error.notFound', seat_taken: 'error.seatTaken', not_offline: 'error.needsServer',
    time_over: 'error.timeOver', cannot_claim: 'error.cannotClaim', engine_failed: 'error.engine',
  }[e.code];
  if (key) return { key, n: Math.max(1, e.retryAfter || 1) };
  return { key: e.status >= 500 || e.status === 408 ? 'error.server' : 'error.generic' };
}
