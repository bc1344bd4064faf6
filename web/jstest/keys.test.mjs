// The keyboard (js/keys.js): ←/→ walk the playable squares in screen
// order, Z and X sow toward the screen's left and right, Esc cancels.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyAction, ownKey } from '../static/js/keys.js';

const playable = new Set([6, 8, 10]);

test('← and → choose the playable squares in screen order, round the row', () => {
  assert.deepEqual(keyAction('ArrowRight', null, playable), { select: 6 });
  assert.deepEqual(keyAction('ArrowLeft', null, playable), { select: 10 });
  assert.deepEqual(keyAction('ArrowRight', 6, playable), { select: 8 });
  assert.deepEqual(keyAction('ArrowRight', 10, playable), { select: 6 });
  assert.deepEqual(keyAction('ArrowLeft', 6, playable), { select: 10 });
  assert.equal(keyAction('ArrowLeft', null, new Set()), null);
});

test('turned round, → runs the other way along the cells', () => {
  assert.deepEqual(keyAction('ArrowRight', null, playable, true), { select: 10 });
  assert.deepEqual(keyAction('ArrowRight', 10, playable, true), { select: 8 });
});

test('Z, X and Esc act on a chosen square only', () => {
  assert.deepEqual(keyAction('z', 6, playable), { sow: 'left' });
  assert.deepEqual(keyAction('X', 6, playable), { sow: 'right' });
  assert.deepEqual(keyAction('Escape', 6, playable), { cancel: true });
  assert.equal(keyAction('z', null, playable), null);
  assert.equal(keyAction('q', 6, playable), null);
});

test('keys typed into a text field or with a modifier are not the game\'s', () => {
  const target = (tag, type) => ({ type, closest: (sel) => (sel.includes(tag) ? {} : null), matches: (sel) => sel === tag });
  assert.equal(ownKey({ ctrlKey: true, target: null }), false);
  assert.equal(ownKey({ target: null }), true);
  assert.equal(ownKey({ target: target('textarea') }), false);
  assert.equal(ownKey({ target: target('input', 'text') }), false);
  assert.equal(ownKey({ target: target('input', 'radio') }), true);
  assert.equal(ownKey({ target: target('select') }), true);
});

test('after Esc, ←/→ go on from the focused square, not from the row\'s end', () => {
  assert.deepEqual(keyAction('ArrowRight', null, playable, false, 8), { select: 10 });
  assert.deepEqual(keyAction('ArrowLeft', null, playable, false, 8), { select: 6 });
  assert.equal(keyAction('z', null, playable, false, 8), null, 'Z sows only a chosen square');
});
