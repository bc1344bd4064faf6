// The clocks the page shows (js/clock.js): counted down from the server's
// figures, never drifting, and written as m:ss, tenths, days and hours.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snapshot, showing, formatClock, formatCorrespondence, correspondenceParts, formatTime, low, isCorrespondence } from '../static/js/clock.js';

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
