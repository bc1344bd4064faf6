// The seats this browser holds (js/secrets.js): each game's secret, its
// seat online and since when, the latest last, the 200 most recent kept.

import './storage.mjs';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { secretOf, keepSecret, seatOf, heldGames, keptSince } from '../static/js/secrets.js';

beforeEach(() => localStorage.clear());

test('a secret kept is read back, with its seat and since when', () => {
  const before = Date.now();
  keepSecret('g1', 's1', 1);
  assert.equal(secretOf('g1'), 's1');
  assert.equal(seatOf('g1'), 1);
  assert.ok(keptSince('g1') >= before, `keptSince = ${keptSince('g1')}, want at least ${before}`);
  assert.equal(secretOf('g2'), '');
  assert.equal(seatOf('g2'), null);
  assert.equal(keptSince('g2'), 0);
});

test('a game without a seat online has none; no id or secret keeps nothing', () => {
  keepSecret('g1', 's1');
  assert.equal(seatOf('g1'), null);
  keepSecret('', 's');
  keepSecret('g2', '');
  assert.deepEqual(heldGames(), ['g1']);
});

test('the games held are listed the latest first, one kept again moving up', () => {
  keepSecret('a', '1');
  keepSecret('b', '2');
  keepSecret('c', '3');
  keepSecret('a', '4');
  assert.deepEqual(heldGames(), ['a', 'c', 'b']);
  assert.equal(secretOf('a'), '4');
});

test('the 200 most recent are kept, with their seats and dates', () => {
  for (let i = 0; i < 205; i++) keepSecret(`g${i}`, `s${i}`, i % 2);
  const held = heldGames();
  assert.equal(held.length, 200);
  assert.equal(held[0], 'g204');
  assert.equal(held.at(-1), 'g5');
  assert.equal(secretOf('g4'), '');
  assert.equal(seatOf('g4'), null);
  assert.equal(keptSince('g4'), 0);
  assert.equal(seatOf('g5'), 1);
});

test('storage that fails is taken as empty', () => {
  localStorage.setItem('oanquan.secrets', '{not json');
  assert.equal(secretOf('g1'), '');
  assert.deepEqual(heldGames(), []);
});
