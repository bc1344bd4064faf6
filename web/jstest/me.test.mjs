// Who is signed in (js/me.js): the name kept in storage, the one call
// that asks the server, a session ended forgetting the name.

import './storage.mjs';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

// What the server answers GET /api/me with, for the next call.
let answer = null;
globalThis.fetch = async (path) => {
  assert.equal(path, '/api/me');
  const { status, body } = answer;
  return { ok: status < 400, status, headers: { get: (h) => (h === 'Content-Type' ? 'application/json' : null) }, json: async () => body };
};
const { kept, me, setMe, onMe, askMe } = await import('../static/js/me.js');

const heard = [];
onMe((name, was) => heard.push([name, was]));
beforeEach(() => { localStorage.clear(); heard.length = 0; });

test('the name set is kept, and forgotten when signed out', () => {
  assert.equal(kept(), null);
  setMe('lan');
  assert.equal(me(), 'lan');
  assert.equal(kept(), 'lan');
  setMe(null);
  assert.equal(me(), null);
  assert.equal(kept(), null);
  assert.deepEqual(heard, [['lan', undefined], [null, 'lan']]);
});

test('asked, the server says who is signed in', async () => {
  answer = { status: 200, body: { username: 'minh', ratings: {} } };
  const p = await askMe();
  assert.equal(p.username, 'minh');
  assert.equal(me(), 'minh');
  assert.equal(kept(), 'minh');
});

test('a session ended (401) is nobody, and the name is forgotten', async () => {
  setMe('minh');
  answer = { status: 401, body: { error: { code: 'signed_out', message: 'signed out' } } };
  assert.equal(await askMe(), null);
  assert.equal(me(), null);
  assert.equal(kept(), null);
});

test('another failure is thrown, and who is signed in stays', async () => {
  setMe('minh');
  answer = { status: 503, body: { error: { code: 'unavailable', message: 'down' } } };
  await assert.rejects(askMe(), (e) => e.code === 'unavailable' && e.status === 503);
  assert.equal(me(), 'minh');
  assert.equal(kept(), 'minh');
});
