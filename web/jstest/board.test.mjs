// The board's geometry and the notation's positions (js/board.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { squareOf, cellOf, ownerOf, onBottom, screenOrder, isMandarin, parseBoard, parsePosition, LEFT, RIGHT } from '../static/js/board.js';

test('squares and cells map both ways, skipping the mandarin at cell 5', () => {
  for (let s = 0; s < 10; s++) assert.equal(squareOf(cellOf(s)), s);
  assert.deepEqual([0, 4, 5, 9].map(cellOf), [0, 4, 6, 10]);
  assert.ok(isMandarin(LEFT) && isMandarin(RIGHT) && !isMandarin(0));
});

test('owners: the top row is player 1, the bottom row player 0, mandarins no one', () => {
  assert.deepEqual([0, 4, 5, 6, 10, 11].map(ownerOf), [1, 1, -1, 0, 0, -1]);
});

test('the screen order, and turned round', () => {
  assert.deepEqual(screenOrder(), [4, 3, 2, 1, 0, 6, 7, 8, 9, 10]);
  assert.deepEqual(screenOrder(true), [10, 9, 8, 7, 6, 0, 1, 2, 3, 4]);
  assert.ok(onBottom(7) && !onBottom(2) && !onBottom(LEFT));
  assert.ok(onBottom(2, true) && !onBottom(7, true));
});

test('a board in the notation', () => {
  const b = parseBoard('5/5/5/5/5/0*/5/5/5/5/5/0* 0 0,0,0 0,0,0 0');
  assert.deepEqual(b.cells, [5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 0]);
  assert.deepEqual(b.stones, [true, true]);
  assert.deepEqual(parseBoard('1/2/3/4/5/6/7/8/9/10/11/12').stones, [false, false]);
  for (const bad of ['', '5/5/5', '5/5/5/5/5/x/5/5/5/5/5/0*', '5/5/5/5/5/0**/5/5/5/5/5/0*']) assert.equal(parseBoard(bad), null, bad);
});

test('a position in the notation, with its stores and ply', () => {
  const p = parsePosition('5/5/5/5/5/0/5/5/5/5/5/0* 1 3,1,0 7,0,2 12');
  assert.equal(p.ply, 12);
  assert.deepEqual(p.model.stores, [{ pebbles: 3, mandarins: 1, debt: 0 }, { pebbles: 7, mandarins: 0, debt: 2 }]);
  assert.deepEqual(p.model.stones, [false, true]);
  assert.equal(parsePosition('5/5/5/5/5/0/5/5/5/5/5/0* 1 3,1,0'), null);
});
