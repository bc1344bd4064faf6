// What a player reads when a call fails (js/errors.js problem): a message of
// their language that says what to do, never the error's own text.

import './setup.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { setLang, t } from '../static/js/i18n.js';
import { problem, APIError } from '../static/js/errors.js';

const RAW = 'RAW-TEXT-42';
// Every code of docs/API.md and of the engine in the browser, and codes
// a server may add (judged by their status).
const failures = [
  new TypeError(RAW), // fetch's own: the server out of reach
  ...['bad_request', 'not_found', 'method_not_allowed', 'forbidden', 'not_your_seat', 'timeout', 'rate_limited',
    'not_your_turn', 'illegal_move', 'game_over', 'conflict', 'too_large', 'unavailable', 'internal', 'seat_taken',
    'not_offline', 'something_new', 'time_over', 'cannot_claim', 'engine_failed'].map((code, i) => new APIError([400, 404, 405, 403, 403, 408, 429, 409, 422, 409, 409, 413, 503, 500, 409, 501, 418, 409, 409, 500][i], code, RAW, 7)),
];

for (const lang of ['vi', 'en', 'fr', 'de', 'ca', 'fa']) {
  test(`${lang}: every failure is said in the language, without the error's text`, async () => {
    await setLang(lang);
    const strings = JSON.parse(await readFile(new URL(`../static/i18n/${lang}.json`, import.meta.url), 'utf8'));
    for (const e of failures) {
      const { key, n } = problem(e);
      assert.ok(key in strings, `${e.code || e.name}: ${key} is not in ${lang}.json`);
      const said = t(key, { n });
      assert.ok(!said.includes(RAW) && !said.includes('{'), `${e.code || e.name} reads ${said}`);
    }
  });
}

test('a server out of reach and a call that needs it say so', async () => {
  await setLang('en');
  assert.equal(problem(new TypeError('Failed to fetch')).key, 'error.network');
  assert.equal(problem(new APIError(501, 'not_offline', 'no such call here: POST draw')).key, 'error.needsServer');
  assert.equal(problem(new APIError(409, 'time_over', 'the move came after your time ran out')).key, 'error.timeOver');
  assert.equal(problem(new APIError(409, 'cannot_claim', 'x')).key, 'error.cannotClaim');
  // The engine in the browser broken (offline/local.js): not the server's fault.
  assert.equal(problem(new APIError(500, 'engine_failed', 'the engine in the browser failed: x')).key, 'error.engine');
  assert.equal(t(problem(new APIError(429, 'rate_limited', '', 7)).key, { n: 7 }), 'Too many requests just now: please wait 7 s and try again.');
});
