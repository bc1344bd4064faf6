// The lobby (docs/API.md, "Lobby"; issue 21): quick pairing for the
// common time controls, the open seeks listed live with one click to
// accept, and a form to post one. The page waits for one pairing at a
// time — a ticket of quick pairing or its own seek — held on the lobby's
// WebSocket (leaving the page withdraws it) and shown with the time
// waited and a cancel; once paired it goes straight to the board, the
// seat's secret kept as a friend's game keeps it. Loaded on demand (nav.js
// route, #lobby). The server pairs, lists and rates; this draws what it
// says and sends what the player asks.

import { t, num, plural } from './i18n.js';
import { call } from './api.js';
import { APIError, problem } from './errors.js';
import { keepSecret } from './secrets.js';
import { announce } from './view.js';
import { $, el, setText } from './dom.js';
import { me, kept, setMe, askMe } from './me.js';
import { controlText } from './clocks.js';
import { markLobby, isolate } from './names.js';
import { useStyle } from './ending.js';
import { ratingShown } from './result.js';

// PRESETS are the time controls of quick pairing and of a seek, as the
// new-game dialog offers them: [initial, increment] in seconds.
const PRESETS = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 0]];
// DAYS are the correspondence controls a seek may have (days per move).
const DAYS = [1, 3, 7, 14];

let app = null; // {open(id), fail(e)} from nav.js
let shown = false; // the lobby is on screen
let asked = false; // whoAmI has had its answer: who is signed in is said
let seeks = []; // the open seeks the server last listed for this page
let wait = null; // {kind: 'quick'|'seek', id, secret, clock, rated, since}: the pairing waited for
let sock = null; // the lobby's WebSocket while it is wanted
let retry = 500; // ms before connecting again after a drop
let ticker = 0; // the interval that redraws the time waited
let problemKey = null; // what went wrong last, said in the lobby: {key, n}

// show shows the lobby (on) or leaves it; controller is nav.js's: open(id)
// shows game id on the board, fail(e) says an error there.
export function show(on, controller) {
  app = controller;
  if (on && !$('lobby-view')) build();
  const v = $('lobby-view');
  if (!v) return;
  v.hidden = !on;
  shown = on;
  if (!on) { if (!wait) disconnect(); return; }
  problemKey = null;
  connect();
  whoAmI();
  render();
  $('lobby-heading').focus();
}

// whoAmI asks who is signed in (me.js): rated games need an account.
// Any failure but a session ended is said.
async function whoAmI() {
  if (kept() !== null) {
    try { await askMe(); } catch (e) { problemKey = problem(e); }
  }
  asked = true;
  render();
}

// signedIn says whether games may be rated: someone is signed in, as the
// server said to whoAmI.
const signedIn = () => asked && me() !== null;

// short writes a time control as players name it: "3+2", "3d".
function short(c) {
  return c.days ? t('lobby.daysShort', { n: c.days }) : `${num(c.initial / 60)}+${num(c.increment)}`;
}

const VIEW = `<h2 id="lobby-heading" tabindex="-1" data-i18n="lobby.heading"></h2>
  <p class="lobby-back"><a class="btn" href="#" data-i18n="nav.game"></a></p>
  <p id="lobby-who" class="lobby-who"></p>
  <p id="lobby-alert" class="alert" role="alert" hidden></p>
  <div id="lobby-wait" class="lobby-wait" hidden>
    <p><span id="lobby-wait-text"></span> <span id="lobby-waited" class="waited" role="timer" dir="ltr"></span></p>
    <button type="button" id="lobby-cancel" data-i18n="button.cancel"></button>
  </div>
  <section class="panel" aria-labelledby="quick-heading">
    <h3 id="quick-heading" data-i18n="lobby.quick"></h3>
    <p id="quick-text" class="lobby-note"></p>
    <div id="quick" class="quick"></div>
  </section>
  <section class="panel" aria-labelledby="seeks-heading">
    <h3 id="seeks-heading" tabindex="-1" data-i18n="lobby.open"></h3>
    <ul id="seeks" class="seeks" aria-labelledby="seeks-heading"></ul>
  </section>
  <section class="panel" aria-labelledby="post-heading">
    <h3 id="post-heading" data-i18n="lobby.post"></h3>
    <form id="post" class="post" novalidate>
      <label class="field"><span data-i18n="clock.preset"></span><select name="clock" id="post-clock"></select></label>
      <label class="check"><input type="checkbox" name="rated" id="post-rated"> <span data-i18n="lobby.rated"></span></label>
      <fieldset class="range"><legend data-i18n="lobby.range"></legend>
        <label class="field"><span data-i18n="lobby.rangeMin"></span><input type="number" name="min" id="post-min" inputmode="numeric" min="0" max="4000" step="1"></label>
        <label class="field"><span data-i18n="lobby.rangeMax"></span><input type="number" name="max" id="post-max" inputmode="numeric" min="0" max="4000" step="1"></label>
      </fieldset>
      <button type="submit" class="primary" id="post-go" data-i18n="lobby.postButton"></button>
    </form>
  </section>`;

// build makes the lobby's view once, after the game's and the rules'.
function build() {
  useStyle();
  const v = el('section', { id: 'lobby-view', className: 'lobby', hidden: true, 'aria-labelledby': 'lobby-heading' });
  v.innerHTML = VIEW;
  $('howto-view').after(v);
  for (const [initial, increment] of PRESETS) {
    const c = { initial, increment };
    const b = el('button', { type: 'button', className: 'quick-go', onclick: () => quick(c) },
      el('span', { className: 'big', dir: 'ltr', 'aria-hidden': 'true' }), el('span', { className: 'small' }));
    b.dataset.clock = `${initial}+${increment}`;
    $('quick').append(b);
  }
  const sel = $('post-clock');
  for (const [initial, increment] of PRESETS) sel.append(el('option', { value: `${initial}+${increment}` }));
  for (const d of DAYS) sel.append(el('option', { value: `d${d}` }));
  sel.value = '180+2';
  $('post').addEventListener('submit', (e) => { e.preventDefault(); post(); });
  $('post').addEventListener('input', (e) => {
    if (e.target.id === 'post-rated') e.target.dataset.touched = '1';
    if (problemKey) { problemKey = null; render(); }
  });
  $('lobby-cancel').onclick = cancel;
  translate();
  // A language chosen while the lobby is open: its words again.
  new MutationObserver(() => { translate(); render(); }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
}

function translate() {
  for (const e of $('lobby-view').querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const b of $('quick').children) {
    const [initial, increment] = b.dataset.clock.split('+').map(Number);
    setText(b.querySelector('.big'), short({ initial, increment }));
    setText(b.querySelector('.small'), controlText({ initial, increment }));
  }
  for (const o of $('post-clock').options) {
    const d = /^d(\d+)$/.exec(o.value);
    setText(o, d ? plural('clock.daysPerMove', Number(d[1])) : controlText(clockOf(o.value)));
  }
}

// clockOf reads an option's value ("180+2", "d3") as the API's clock.
function clockOf(value) {
  const d = /^d(\d+)$/.exec(value);
  if (d) return { days: Number(d[1]) };
  const [initial, increment] = value.split('+').map(Number);
  return { initial, increment };
}

// render draws the lobby as it stands: who plays (rated or casual), the
// pairing waited for, the open seeks, what went wrong.
function render() {
  if (!$('lobby-view')) return;
  const rated = signedIn();
  setText($('lobby-who'), !asked ? '' : rated ? t('lobby.signedIn', { name: isolate(me()) }) : t('lobby.signedOut'));
  setText($('quick-text'), t(rated ? 'lobby.quickRated' : 'lobby.quickCasual'));
  // Rated by default once signed in, until the player chooses.
  const box = $('post-rated');
  box.disabled = !rated;
  if (!rated || !box.dataset.touched) box.checked = rated;
  $('lobby-wait').hidden = !wait;
  for (const b of $('quick').children) {
    b.disabled = !!wait;
    b.setAttribute('aria-pressed', String(!!wait && wait.kind === 'quick' && b.dataset.clock === `${wait.clock.initial}+${wait.clock.increment}`));
  }
  $('post-go').disabled = !!wait;
  if (wait) {
    setText($('lobby-wait-text'), t(wait.kind === 'quick' ? 'lobby.searching' : 'lobby.waiting', { control: controlText(wait.clock), kind: t(wait.rated ? 'lobby.rated' : 'lobby.casual') }));
    drawWaited();
  }
  const alert = problemKey ? t(problemKey.key, { n: problemKey.n }) : '';
  setText($('lobby-alert'), alert);
  $('lobby-alert').hidden = !alert;
  drawSeeks();
}

// drawWaited shows how long the pairing has been waited for (m:ss).
function drawWaited() {
  if (!wait) return;
  const s = Math.floor((Date.now() - wait.since) / 1000);
  setText($('lobby-waited'), `${num(Math.floor(s / 60))}:${num(s % 60).padStart(2, num(0))}`);
}

// drawSeeks lists the open seeks, each with its button to accept it.
function drawSeeks() {
  const list = $('seeks');
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.seek : null;
  list.textContent = '';
  if (!seeks.length) { list.append(el('li', { className: 'none' }, t('lobby.none'))); return; }
  for (const k of seeks) {
    const who = k.poster === 'anonymous' ? t('lobby.anonymous') : k.poster;
    const rating = k.rating ? ratingShown(k.rating.rating, k.rating.provisional) : '';
    const what = [controlText(k.clock), t('lobby.speed.' + k.speed), t(k.rated ? 'lobby.rated' : 'lobby.casual')];
    if (k.range) what.push(t('lobby.rangeShown', { min: k.range[0], max: k.range[1] }));
    const go = el('button', { type: 'button', className: 'primary', disabled: !!wait, onclick: () => accept(k.id) }, t('lobby.accept'));
    go.setAttribute('aria-label', t('lobby.acceptOf', { name: who, control: controlText(k.clock) }));
    go.dataset.seek = k.id;
    list.append(el('li', { className: 'seek' },
      el('span', { className: 'who' }, el('bdi', {}, who), rating ? ` (${rating})` : ''),
      el('span', { className: 'ctl', dir: 'ltr' }, short(k.clock)),
      el('span', { className: 'what' }, what.join(t('games.sep'))),
      go));
  }
  // The list redrawn under the keyboard's focus keeps it on its seek.
  if (focused) (list.querySelector(`[data-seek="${CSS.escape(focused)}"]`) || $('seeks-heading')).focus();
}

// The pairing waited for ---------------------------------------------------

// quick joins the pool of clock c: rated when signed in.
async function quick(c) {
  if (wait) return;
  problemKey = null;
  const rated = signedIn();
  try {
    const tk = await call('POST', '/api/pairing', { clock: c, rated });
    if (tk.game) { paired(tk.game.id, tk.seat, tk.secret); return; }
    waitFor({ kind: 'quick', id: tk.id, secret: tk.secret, clock: c, rated });
    announce(`${t('lobby.searching', { control: controlText(c), kind: t(rated ? 'lobby.rated' : 'lobby.casual') })}`);
  } catch (e) { refused(e); }
}

// post posts the form's seek.
async function post() {
  if (wait) return;
  problemKey = null;
  const f = $('post');
  const clock = clockOf(f.elements.clock.value);
  const body = { clock, rated: f.elements.rated.checked && signedIn() };
  const min = f.elements.min.value.trim(), max = f.elements.max.value.trim();
  if (min || max) body.range = [min ? Number(min) : 0, max ? Number(max) : 4000];
  try {
    const k = await call('POST', '/api/seeks', body);
    waitFor({ kind: 'seek', id: k.id, secret: k.secret, clock, rated: body.rated });
    announce(t('lobby.waiting', { control: controlText(clock), kind: t(body.rated ? 'lobby.rated' : 'lobby.casual') }));
  } catch (e) { refused(e); }
}

// accept accepts seek id: its game is this page's at once.
async function accept(id) {
  if (wait) return;
  problemKey = null;
  try {
    const j = await call('POST', `/api/seeks/${id}/accept`);
    paired(j.game.id, j.seat, j.secret);
  } catch (e) { refused(e); }
}

// cancel withdraws the pairing waited for; one paired meanwhile is played.
async function cancel() {
  const w = wait;
  if (!w) return;
  try {
    await withSecret('DELETE', `/api/seeks/${w.id}`, w.secret);
    if (wait === w) stopWaiting();
    announce(t('lobby.cancelled'));
  } catch (e) {
    if (e instanceof APIError && e.code === 'seek_taken') learn(w);
    else refused(e);
  }
}

function waitFor(w) {
  wait = { ...w, since: Date.now() };
  hold();
  clearInterval(ticker);
  ticker = setInterval(drawWaited, 1000);
  render();
  $('lobby-cancel').focus();
}

function stopWaiting() {
  wait = null;
  clearInterval(ticker);
  if (!shown) disconnect();
  render();
}

// paired plays game id, in seat with secret: the board shows it.
function paired(id, seat, secret) {
  keepSecret(id, secret, seat);
  markLobby(id); // the other seat is an opponent, not a friend (names.js)
  stopWaiting();
  announce(t('lobby.paired'));
  app.open(id);
}

// learn asks the server what became of pairing w (its socket could not
// say): its game if paired, else it is gone.
async function learn(w) {
  try {
    const k = await withSecret('GET', `/api/seeks/${w.id}`, w.secret);
    if (k.game && wait === w) paired(k.game, k.seat, w.secret);
  } catch (e) {
    if (wait === w) { stopWaiting(); problemKey = { key: 'lobby.gone' }; render(); }
  }
}

// withSecret makes a request as the poster of a seek or ticket, with its
// secret (api.js call sends a game's only), and returns the JSON answer
// (null for none); a refusal is thrown as call throws it.
async function withSecret(method, path, secret) {
  const res = await fetch(path, { method, headers: { Authorization: `Bearer ${secret}` } });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (res.ok) return data;
  const e = (data && data.error) || {};
  throw Object.assign(new APIError(res.status, e.code || 'error', e.message, Number(res.headers.get('Retry-After')) || 0), { detail: e });
}

// refused says why a request of the lobby failed, in the player's words.
function refused(e) {
  const d = (e instanceof APIError && e.detail) || {};
  let key = {
    seek_taken: 'lobby.taken', own_seek: 'lobby.own', out_of_range: 'lobby.outOfRange', not_found: 'lobby.taken', signed_out: 'lobby.signedOutNow',
  }[e.code];
  if (e instanceof APIError && e.status === 400 && d.field === 'range') key = 'lobby.badRange';
  if (e.code === 'signed_out') setMe(null);
  problemKey = key ? { key } : problem(e);
  render();
  announce(t(problemKey.key, { n: problemKey.n }));
}

// The lobby's WebSocket ------------------------------------------------------

function connect() {
  if (sock) return;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/lobby/ws`);
  sock = ws;
  ws.onopen = () => { retry = 500; hold(); };
  ws.onmessage = (e) => { try { heard(JSON.parse(e.data)); } catch (err) { console.warn(err); } };
  ws.onclose = () => {
    if (sock !== ws) return;
    sock = null;
    if (!shown && !wait) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function disconnect() {
  const ws = sock;
  sock = null;
  if (ws) ws.close(1000);
}

// hold holds the pairing waited for on the socket, once it is open.
function hold() {
  if (!wait) return;
  if (!sock) connect();
  else if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: 'hold', seek: wait.id, secret: wait.secret }));
}

// heard answers a message of the lobby's socket.
function heard(msg) {
  const mine = wait && msg.seek === wait.id;
  if (msg.type === 'seeks') { seeks = msg.seeks || []; if (shown) drawSeeks(); }
  else if (msg.type === 'paired' && mine) paired(msg.game, msg.seat, msg.secret);
  else if (msg.type === 'gone' && mine) { stopWaiting(); problemKey = { key: 'lobby.gone' }; render(); announce(t('lobby.gone')); }
  else if (msg.type === 'error' && mine) learn(wait);
}
