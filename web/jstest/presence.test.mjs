// Who is connected, as the page shows it (js/turns.js): the feed's last
// word, not that of a turn's state shown after it, nor of an HTTP
// answer made before it.

import './setup.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';

// turns.js draws through view.js, which finds its elements on loading:
// a stand-in for every element and call, that does nothing.
const none = new Proxy(function () {}, {
  get: (_, k) => (k === Symbol.toPrimitive ? () => '' : k === Symbol.iterator ? [][Symbol.iterator] : k === 'then' ? undefined : none),
  apply: () => none,
  set: () => true,
});
Object.assign(globalThis.document, { getElementById: () => none, querySelector: () => none, createElement: () => none, addEventListener() {}, body: none, hidden: true });
Object.assign(globalThis, { addEventListener() {}, matchMedia: () => none, requestAnimationFrame: (f) => setTimeout(f, 0), localStorage: { getItem: () => null, setItem() {} } });
const { S, game } = await import('../static/js/state.js');
const { show, receive } = await import('../static/js/turns.js');

const here = { seats: [true, true], watchers: 1, taken: [true, true], dropped: [false, false] };
const gone = { seats: [true, false], watchers: 0, taken: [true, true], dropped: [false, true] };
const state = (ply, presence) => ({ id: 'g', mode: 'online', ply, moves: [], history: [], presence, cells: Array(12).fill(5), stones: [true, true], stores: [{}, {}] });

test('an HTTP answer made before the feed\'s last presence does not bring back an older one', () => {
  S.link = 'up';
  show(state(0, here));
  receive({ type: 'presence', presence: gone }, true);
  assert.deepEqual(game().presence, gone);
  receive({ type: 'state', state: state(0, here) }); // an HTTP answer
  assert.deepEqual(game().presence, gone);
  receive({ type: 'state', state: state(0, here) }, true); // the feed's
  assert.deepEqual(game().presence, here);
});

test('while the feed is down, an HTTP answer says who is connected', () => {
  S.link = 'down';
  show(state(0, here));
  receive({ type: 'state', state: state(0, gone) });
  assert.deepEqual(game().presence, gone);
});

test('a turn shown after a presence message does not bring back the presence of its moment', async () => {
  S.link = 'up';
  show(state(0, gone));
  receive({ type: 'turn', turn: { ply: 0, player: 0, move: '5R', events: [], state: { ...state(1, gone), moves: ['5R'], history: [{ move: '5R', player: 0, by: 'human' }] } } }, true);
  receive({ type: 'presence', presence: here }, true); // while the turn is being shown
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(game().ply, 1);
  assert.deepEqual(game().presence, here);
});
