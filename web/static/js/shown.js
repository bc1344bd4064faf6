// What the page shows of the game: the turn pipeline's state (turns.js
// writes it, alone) and the two ways every other module reads it, game()
// and snapshot(). Kept apart from the pipeline so that the modules the
// pipeline uses (state.js, view.js) can read it without importing it.

import * as Q from './turnq.js';

// P is the pipeline's state. news counts states and turns received, so
// that an answer older than the news is dropped (app.js, fetchState).
// Written by turns.js only.
export const P = {
  q: Q.queue(), state: null, model: null, thinking: false, news: 0,
  last: null, // the last move: {start, path, capture} sets of cells, stop
  turns: [], // the turn log: {key, ply, player, move, title, items} with texts as functions
  active: null, hand: 0, // the cell an event acts on, the pebbles in hand
  snapshots: new Map(), // ply -> model, the positions seen in this session
  said: [], // what the turns shown since the last pause say
  // presence is who is connected as last received: newer than that of a
  // turn's state shown after it (the state of its moment), which it
  // stands in for.
  presence: null,
};

// snapshot returns what the pipeline shows: the game's state, model,
// phase, last move, turn log, the cell acted on and the hand.
export function snapshot() {
  const { q, ...shown } = P;
  return { ...shown, phase: q.phase, waiting: q.queue.length };
}

// game returns the game's state shown (never to be changed).
export function game() { return P.state; }
