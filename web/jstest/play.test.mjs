// A turn's events applied to the board's model (js/play.js), and the
// final count's texts (js/result.js), in English and Persian (js/i18n.js).

import './setup.mjs';
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, t, plural, num, list } from '../static/js/i18n.js';
import { modelOf, applyEvent, delayFor, important } from '../static/js/play.js';
import { winnerText, whyText } from '../static/js/result.js';

before(() => setLang('en'));

const start = () => modelOf({
  cells: [5, 5, 5, 5, 5, 0, 5, 5, 5, 5, 5, 0], stones: [true, true],
  stores: [{ pebbles: 0, mandarins: 0, debt: 0 }, { pebbles: 3, mandarins: 0, debt: 0 }],
});
const name = (p) => `P${p}`;

test('modelOf copies: events change the copy only', () => {
  const st = { cells: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], stones: [true, false], stores: [{ pebbles: 1 }, { pebbles: 2 }] };
  const m = modelOf(st);
  m.cells[0] = 99;
  m.stores[0].pebbles = 99;
  assert.equal(st.cells[0], 1);
  assert.equal(st.stores[0].pebbles, 1);
});

test('pickup, drops and a capture of a mandarin square', () => {
  const m = start();
  let out = applyEvent(m, { kind: 'pickup', player: 0, cell: 7, count: 5 }, name, 0);
  assert.equal(m.cells[7], 0);
  assert.equal(out.hand, 5);
  assert.equal(out.mark, 'start');
  assert.equal(out.message(), '5 pebbles taken from square 6.');
  out = applyEvent(m, { kind: 'drop', player: 0, cell: 8, count: 6 }, name, out.hand);
  assert.equal(m.cells[8], 6);
  assert.equal(out.hand, 4);
  assert.equal(out.message, null);
  out = applyEvent(m, { kind: 'capture', player: 0, cell: 11, count: 2, stone: true, points: 12 }, name, 0);
  assert.deepEqual([m.cells[11], m.stones[1], m.stores[0].pebbles, m.stores[0].mandarins], [0, false, 2, 1]);
  assert.match(out.message(), /12 points/);
});

test('a refill puts a pebble on each square the event names, from the store', () => {
  const m = start();
  m.cells.fill(0, 0, 5);
  const out = applyEvent(m, { kind: 'refill', player: 1, cell: -1, cells: [0, 1, 2, 3, 4] }, name, 0, (p) => p === 0);
  assert.deepEqual(m.cells.slice(0, 5), [1, 1, 1, 1, 1]);
  assert.equal(m.stores[1].pebbles, 0);
  assert.equal(out.active, null);
  assert.match(out.message(), /P1/);
});

test('a loan from the other store is owed', () => {
  const m = start();
  applyEvent(m, { kind: 'borrow', player: 0, cell: -1, count: 3 }, name, 0);
  assert.deepEqual(m.stores, [{ pebbles: 3, mandarins: 0, debt: 3 }, { pebbles: 0, mandarins: 0, debt: 0 }]);
});

test('the pauses: normal, fast (a quarter), off; and what is spoken', () => {
  assert.equal(delayFor('drop', 'normal'), 260);
  assert.equal(delayFor('drop', 'fast'), 65);
  assert.equal(delayFor('capture', 'off'), 0);
  assert.equal(delayFor('unknown', 'normal'), 400);
  assert.ok(important('capture') && !important('drop') && !important('pickup'));
});

test('strings: placeholders, plurals, a missing key, numbers and lists in English', () => {
  assert.equal(plural('pebbles', 1), '1 pebble');
  assert.equal(plural('pebbles', 5), '5 pebbles');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(num(1234), '1,234');
  assert.equal(list(['a', 'b', 'c'], 'and'), 'a, b, and c');
});

test('the winner and why the game ended', () => {
  const result = { winner: 0, players: [] };
  assert.equal(winnerText(result, 0, name, true), t('result.youWin'));
  assert.equal(winnerText(result, 1, name, true), t('result.computerWins'));
  assert.equal(winnerText({ winner: -1 }, null, name, false), t('result.draw'));
  assert.equal(whyText('mandarins', result, name), '');
  assert.equal(whyText('resign', result, name, 1), t('why.you-resign'));
  assert.equal(whyText('abort', result, name, 1, 'firstMove'), t('why.abortFirstMove'));
  assert.equal(whyText('abort', result, name, 1, 'player'), t('why.abort'));
  assert.equal(whyText('draw', result, name, 1, 'claim'), t('why.drawClaim'));
  assert.equal(whyText('draw', result, name, 1, 'agreed'), t('why.draw'));
  assert.notEqual(t('why.abortFirstMove'), 'why.abortFirstMove');
  assert.notEqual(t('why.drawClaim'), 'why.drawClaim');
});

test('Persian: its digits, its strings, right to left', async () => {
  await setLang('fa');
  try {
    assert.equal(num(12), '۱۲');
    assert.equal(document.documentElement.dir, 'rtl');
    assert.notEqual(t('button.undo'), 'Undo');
  } finally {
    await setLang('en');
  }
  assert.equal(document.documentElement.dir, 'ltr');
});

test('a store\'s points follow the events as docs/API.md says, when the state gave them', () => {
  const m = modelOf({
    cells: [0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0], stones: [false, true],
    stores: [{ pebbles: 2, mandarins: 1, debt: 0, points: 12 }, { pebbles: 1, mandarins: 0, debt: 0, points: 1 }],
  });
  applyEvent(m, { kind: 'capture', player: 0, cell: 11, count: 0, stone: true, points: 10 }, name, 0);
  assert.equal(m.stores[0].points, 22);
  applyEvent(m, { kind: 'borrow', player: 1, cell: -1, count: 4 }, name, 0);
  assert.deepEqual(m.stores.map((s) => s.points), [22, 1], 'a loan changes no one\'s points');
  applyEvent(m, { kind: 'refill', player: 1, cell: -1, cells: [0, 1, 2, 3, 4] }, name, 0);
  assert.deepEqual(m.stores.map((s) => s.points), [22, -4], 'a refill takes the pebbles it puts on the row');
  const old = start();
  applyEvent(old, { kind: 'capture', player: 0, cell: 11, count: 2, stone: true, points: 12 }, name, 0);
  assert.equal(old.stores[0].points, undefined, 'no points where the state gave none');
});

test('a rating change: rounded, "?" while provisional, the difference of the numbers shown', async () => {
  const { ratingText } = await import('../static/js/result.js');
  const prov = { provisional: true }, firm = { provisional: false };
  assert.equal(ratingText('blitz', 1500, 1662.3, { before: prov, after: prov }), 'Blitz rating: 1500? → 1662? (+162)');
  assert.equal(ratingText('rapid', 1700.4, 1689.6, { before: firm, after: firm }), 'Rapid rating: 1700 → 1690 (-10)');
  assert.equal(ratingText('bullet', 1500, 1500.2, {}), 'Bullet rating: 1500 → 1500 (0)');
  await setLang('fa');
  assert.equal(ratingText('blitz', 1500, 1337.7, { before: prov, after: firm }), 'امتیاز برق‌آسا: ۱۵۰۰؟ ← ۱۳۳۸ (‎−۱۶۲)');
  await setLang('en');
});
