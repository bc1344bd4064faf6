// The clocks the page shows (js/clock.js): counted down from the server's
// figures, never drifting, and written as m:ss, tenths, days and hours.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snapshot, showing, formatClock, formatCorrespondence, correspondenceParts, formatTime, low, isCorrespondence, take, tookMs, spokenParts, urgency, awaySince } from '../static/js/clock.js';

const clock = { initial: 180, increment: 2, remaining: [175000, 180000], running: 0 };

test('no clock, no snapshot', () => {
  assert.equal(snapshot(undefined, 0), null);
  assert.equal(snapshot(null, 0), null);
});

test('the running side counts down from the server figure; the other stays', () => {
  const snap = snapshot(clock, 1000);
  assert.deepEqual(showing(snap, 1000).left, [175000, 180000]);
  assert.deepEqual(showing(snap, 3500).left, [172500, 180000]);
  assert.deepEqual(showing(snap, 500).left, [175000, 180000], 'before the snapshot: as received');
  assert.deepEqual(showing(snap, 1000 + 200000).left, [0, 180000], 'never below zero');
  const other = snapshot({ ...clock, running: 1 }, 0);
  assert.deepEqual(showing(other, 1000).left, [175000, 179000]);
  const stopped = snapshot({ ...clock, running: null }, 0);
  assert.deepEqual(showing(stopped, 99999).left, [175000, 180000]);
});

test('never drifting: ten minutes of frames end where one step does', () => {
  const snap = snapshot({ ...clock, remaining: [600000, 600000] }, 0);
  let shown;
  for (let now = 0; now <= 600000; now += 16.7) shown = showing(snap, now).left[0];
  const once = showing(snap, 600000 - (600000 % 16.7)).left[0];
  assert.ok(Math.abs(shown - once) < 1e-6, `${shown} after frames, ${once} at once`);
  assert.ok(shown < 17, `${shown} ms left after ten minutes of frames`);
});

test('the first move counts down, without the clocks', () => {
  const snap = snapshot({ ...clock, running: null, firstMoveMs: 30000 }, 0);
  assert.deepEqual(showing(snap, 12000), { left: [175000, 180000], first: 18000 });
  assert.equal(showing(snap, 40000).first, 0);
  assert.equal(showing(snapshot(clock, 0), 5).first, null);
});

test('real time: m:ss, h:mm:ss, tenths under 10 s, cut down', () => {
  const cases = [
    [180000, '3:00'], [179999, '2:59'], [61000, '1:01'], [10000, '0:10'], [9999, '0:09.9'],
    [9400, '0:09.4'], [450, '0:00.4'], [99, '0:00.0'], [0, '0:00.0'], [-5, '0:00.0'],
    [3600000, '1:00:00'], [10800000, '3:00:00'], [3725000, '1:02:05'],
  ];
  for (const [ms, want] of cases) assert.equal(formatClock(ms), want, `${ms} ms`);
});

test('the warning under 10 s, in real time only', () => {
  assert.equal(low(9999), true);
  assert.equal(low(10000), false);
  assert.equal(low(5000, true), false);
});

test('correspondence: days and hours, hours and minutes, minutes and seconds', () => {
  const day = 86400000, hour = 3600000;
  assert.deepEqual(correspondenceParts(3 * day + 4 * hour + 59 * 60000), { days: 3, hours: 4 });
  assert.equal(formatCorrespondence(3 * day + 4 * hour), '3d 4h');
  assert.equal(formatCorrespondence(14 * day), '14d 0h');
  assert.equal(formatCorrespondence(5 * hour + 12 * 60000 + 999), '5h 12m');
  assert.equal(formatCorrespondence(7 * 60000 + 30000), '7m 30s');
  assert.equal(formatCorrespondence(0), '0m 0s');
  assert.equal(formatCorrespondence(day + hour, { days: ' j', hours: ' h' }), '1 j 1 h');
  const snap = snapshot({ days: 3, remaining: [3 * day, 3 * day], running: 1 }, 0);
  assert.equal(isCorrespondence({ days: 3 }), true);
  assert.equal(formatTime(snap, showing(snap, hour).left[1]), '2d 23h');
  assert.equal(formatTime(snapshot(clock, 0), 9400), '0:09.4');
});

test('take keeps the earliest instant of the same figures, and never goes back', () => {
  const st = { id: 'g', ply: 4, over: false, clock: { ...clock } };
  const a = take(null, st, 100);
  assert.equal(a.at, 100);
  assert.deepEqual(a.control, { initial: 180, increment: 2 });
  assert.equal(take(a, { ...st, clock: { ...clock } }, 400), a, 'the same figures again keep their first instant');
  const b = take(a, { ...st, ply: 5, clock: { ...clock, running: 1, remaining: [170000, 180000] } }, 500);
  assert.equal(b.at, 500);
  assert.equal(take(b, st, 600), b, 'an older ply is no news');
  const over = take(b, { ...st, ply: 5, over: true, clock: { ...clock, running: null, remaining: [170000, 0] } }, 700);
  assert.equal(over.over, true);
  assert.equal(take(over, { ...st, ply: 5, clock: { ...clock, running: 1 } }, 800), over, 'a game seen over stays over');
  assert.equal(take(b, { ...st, id: 'h' }, 900).id, 'h', 'another game starts afresh');
  assert.equal(take(b, { ...st, clock: undefined }, 900), null);
});

test('tookMs: the time lost plus the increment, none for first moves or days', () => {
  const after = [[180000, 180000], [180000, 180000], [172000, 180000], [172000, 169500], [174000, 169500]];
  const c = { initial: 180, increment: 2, remaining: [174000, 169500], running: null, after };
  const movers = [0, 1, 0, 1, 0];
  assert.equal(tookMs(c, movers, 0), null);
  assert.equal(tookMs(c, movers, 1), null);
  assert.equal(tookMs(c, movers, 2), 10000);
  assert.equal(tookMs(c, movers, 3), 12500);
  assert.equal(tookMs(c, movers, 4), 0);
  assert.equal(tookMs(c, movers, 5), null);
  assert.equal(tookMs({ days: 3, remaining: [1, 1], after }, movers, 3), null);
});

test('tookMs: the server\'s figure for every move, first moves and days included', () => {
  const after = [[180000, 180000], [180000, 180000], [172000, 180000]];
  const c = { initial: 180, increment: 2, remaining: [172000, 180000], running: null, after, used: [4200, 900, 10000] };
  assert.equal(tookMs(c, [0, 1, 0], 0), 4200);
  assert.equal(tookMs(c, [0, 1, 0], 1), 900);
  assert.equal(tookMs({ days: 3, remaining: [1, 1], after, used: [5, 2 * 86400000, 3600000] }, [0, 1, 0], 1), 2 * 86400000);
  assert.equal(tookMs({ ...c, used: [null, null, null] }, [0, 1, 0], 2), 10000, 'a move saved without it: worked out');
  assert.equal(tookMs({ ...c, used: [null, null, null] }, [0, 1, 0], 0), null);
});

test('awaySince: when each player left, by the server\'s figure, on the local clock', () => {
  assert.deepEqual(awaySince({ clock: { awayMs: [null, 34000] } }, 100000), [null, 66000]);
  assert.deepEqual(awaySince({ clock: { remaining: [1, 1] } }, 5), [null, null]);
  assert.deepEqual(awaySince({}, 5), [null, null]);
});

test('spokenParts leaves out units at zero but keeps one', () => {
  assert.deepEqual(spokenParts(161000), { minutes: 2, seconds: 41 });
  assert.deepEqual(spokenParts(3600000), { hours: 1 });
  assert.deepEqual(spokenParts(400), { seconds: 0 });
  assert.deepEqual(spokenParts(2 * 86400000 + 3 * 3600000, true), { days: 2, hours: 3 });
});

test('urgency: my move on a clock, the least time first; the rest after, as they were', () => {
  const g = (toMove, clock, over = false) => ({ toMove, over, clock });
  const keys = [
    g(0, { days: 3, remaining: [3600000, 86400000], running: 0 }),
    g(0, { days: 3, remaining: [86400000, 86400000], running: 0 }),
    g(0, undefined),
    g(1, { days: 1, remaining: [5, 5], running: 1 }),
    g(0, { days: 1, remaining: [5, 5], running: null }, true),
  ].map((s) => urgency(s, 0));
  assert.ok(keys[0] < keys[1] && keys[1] < Infinity);
  assert.deepEqual(keys.slice(2), [Infinity, Infinity, Infinity], 'no clock, their move, or over: in their order');
  assert.equal(urgency(g(0, { days: 1, remaining: [9, 9], firstMoveMs: 3 }), 0), 3, 'a first move timed counts by its limit');
  assert.equal(urgency(g(0, clock), null), Infinity, 'watching: no move of mine');
});
