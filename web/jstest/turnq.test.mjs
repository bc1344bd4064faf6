// The turn pipeline's state machine (js/turnq.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as Q from '../static/js/turnq.js';

const state = (ply, more = {}) => ({ id: 'g', ply, legal: [], ...more });
const turn = (ply) => ({ ply, events: [{ kind: 'pickup' }], state: state(ply + 1) });

test('a turn at the ply expected is queued, then shown; an older one is dropped', () => {
  const q = Q.queue(3);
  assert.equal(Q.take(q, turn(3)), 'queue');
  assert.equal(q.expect, 4);
  assert.equal(Q.take(q, turn(3)), 'old');
  assert.equal(Q.next(q).ply, 3);
  assert.equal(q.phase, 'showing');
  assert.equal(Q.shown(q), null);
  assert.equal(Q.next(q), null);
  assert.equal(q.phase, 'idle');
});

test('a turn past the one expected jumps to its state, or queues it bare while showing', () => {
  const q = Q.queue(0);
  assert.equal(Q.take(q, turn(5)), 'jump');
  assert.equal(q.expect, 6);
  Q.take(q, turn(6));
  Q.next(q);
  assert.equal(Q.take(q, turn(9)), 'queue');
  assert.deepEqual(q.queue[0], { state: state(10), events: [] });
});

test('a state while idle shows at once, and says when it took moves back', () => {
  const q = Q.queue(6);
  assert.equal(Q.replace(q, state(6)), 'show');
  assert.equal(Q.replace(q, state(4)), 'back');
  assert.equal(q.expect, 4);
});

test('a state while a turn is shown cuts it short, unless it is the same ply', () => {
  const q = Q.queue(2);
  Q.take(q, turn(2));
  Q.take(q, turn(3));
  Q.next(q);
  assert.equal(Q.replace(q, state(4)), 'thinking');
  assert.equal(Q.replace(q, state(1)), 'cut');
  assert.equal(q.skip, 'turn');
  assert.deepEqual(q.queue, []);
  assert.deepEqual(Q.shown(q), state(1));
  assert.equal(q.skip, '');
  assert.equal(q.expect, 1);
});

test('a move sent holds the phase until answered, even across a turn shown', () => {
  const q = Q.queue(0);
  Q.send(q, true);
  assert.equal(q.phase, 'sending');
  Q.take(q, turn(0));
  Q.next(q);
  assert.equal(q.phase, 'showing');
  Q.shown(q);
  Q.next(q);
  assert.equal(q.phase, 'sending');
  Q.send(q, false);
  assert.equal(q.phase, 'idle');
});

test('skip: nothing to skip when idle and nobody thinks; else every turn until a person is to move', () => {
  const q = Q.queue(0);
  assert.equal(Q.skip(q, false), false);
  assert.equal(q.skip, '');
  assert.equal(Q.skip(q, true), true);
  assert.equal(q.skip, 'all');
  Q.shown(q);
  assert.equal(q.skip, 'all');
  Q.settle(q, state(2));
  assert.equal(q.skip, 'all');
  Q.settle(q, state(3, { legal: ['7L'] }));
  assert.equal(q.skip, '');
});

test('a new game drops the turns; one being shown ends at once and the new state follows', () => {
  const q = Q.queue(0);
  Q.take(q, turn(0));
  Q.take(q, turn(1));
  Q.next(q);
  Q.reset(q, state(0, { id: 'h' }));
  assert.deepEqual(q.queue, []);
  assert.equal(q.skip, 'turn');
  assert.equal(Q.shown(q).id, 'h');
  const idle = Q.queue(4);
  Q.reset(idle, state(9));
  assert.equal(idle.expect, 9);
  assert.equal(idle.pending, null);
});

test('after an undo the turns waiting are dropped; a state shown is never followed by an older turn', () => {
  const q = Q.queue(8);
  Q.take(q, turn(8));
  Q.undone(q, state(6));
  assert.deepEqual(q.queue, []);
  assert.equal(Q.take(q, turn(6)), 'queue');
  Q.seen(q, state(9));
  assert.equal(Q.take(q, turn(8)), 'old');
  Q.seen(q, state(3));
  assert.equal(q.expect, 9);
});

test('a new game forgets a move sent in the game before: it is idle, ready for a move', () => {
  const q = Q.queue(4);
  Q.send(q, true);
  assert.equal(q.phase, 'sending');
  Q.reset(q, state(0));
  assert.equal(q.phase, 'idle');
  assert.equal(q.sent, false);
  assert.equal(Q.next(q), null);
  assert.equal(q.phase, 'idle');
});
