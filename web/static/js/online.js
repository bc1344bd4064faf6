// Playing a friend online (docs/API.md, "Playing a friend online"): the
// invitation (link, copy, share sheet, QR code), who is connected, the
// offers and their answers, the rematch, the private link that moves a
// seat to another device, and "Your games". Loaded only when needed: the
// first visit's page does without it. The server decides everything;
// this draws what it reports and sends what the player asks.

import { t, plural, num, currentLang, translateDOM } from './i18n.js';
import { api, call } from './api.js';
import { APIError } from './errors.js';
import { secretOf, seatOf, keepSecret, heldGames, keptSince } from './secrets.js';
import { S, me, playerName, isOnline, moverOf, flipped } from './state.js';
import { watchStates } from './turns.js';
import { game } from './shown.js';
import { announce, addDrawer, setButton, invalidate } from './view.js';
import { $ } from './dom.js';
import { take, showing, low, formatTime, formatClock, urgency, tookMs, spokenParts, awaySince } from './clock.js';
import { setText } from './board.js';
import * as sound from './sound.js';
import { useStyle } from './ending.js';

let app = null; // {open(id), fail(e)} from app.js
let seen = null; // what the last render saw, to announce what changed
// answered is the answer to this page's offer, {id, ply, key}: shown in
// the offer's place until the game moves on. copied is the link just
// copied, {where, key}: said beside its button for a few seconds.
let answered = null;
let copied = null;
const TITLE = document.title;

// init wires the module to the page's controller: open(id) shows game id,
// fail(e) reports an error, note(say) says something in the log, show(st)
// shows a state the server answered with. The online parts are drawn in
// every redraw from then on.
export function init(controller) {
  if (app) return;
  app = controller;
  S.named = named;
  build();
  addDrawer(render);
  watchStates((st, at) => { clk = take(clk, st, at); gone = { id: st.id, since: awaySince(st, at) }; });
  // The clocks' styles come with them.
  document.head.append(el('link', { rel: 'stylesheet', href: '/css/clock.css' }));
  useStyle(); // the phrases'
  // A game with a clock the server may refuse keeps the new-game dialog
  // open: the refusal is said there (createClocked).
  const f = $('newgame-form');
  f.addEventListener('submit', async (e) => {
    const body = clockBody(readClock(f));
    if (e.submitter?.value !== 'start' || f.elements.mode.value !== 'online' || !body) return;
    e.preventDefault();
    const first = f.elements.first.value;
    const variants = [...f.querySelectorAll('input[name=variant]:checked')].map((b) => b.value);
    try {
      const st = await createClocked({ mode: 'online', first: first === 'random' ? first : Number(first), variants, clock: body });
      if (!st) return;
      $('newgame').close('made');
      app.open(st.id);
    } catch (err) {
      $('newgame').close('failed');
      app.fail(err);
    }
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) document.title = TITLE; });
}

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role' || k === 'for') e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...kids);
  return e;
}

function button(id, key, onclick, cls = '', hidden = false) {
  const b = el('button', { type: 'button', id, className: cls, onclick, hidden });
  b.dataset.i18n = key;
  b.textContent = t(key);
  return b;
}

// build makes the panel's parts once; render shows and fills them.
function build() {
  const box = $('online');
  const link = el('input', { id: 'invite-link', type: 'text', readOnly: true, className: 'link', dir: 'ltr' });
  link.setAttribute('aria-labelledby', 'invite-heading');
  const qr = el('img', { id: 'invite-qr', className: 'qr', width: 164, height: 164, alt: '' });
  const invite = el('div', { id: 'invite', className: 'invite', hidden: true },
    el('h2', { id: 'invite-heading' }),
    el('p', { id: 'invite-text' }),
    el('p', { id: 'invite-clock', className: 'invite-clock', hidden: true }),
    el('div', { className: 'link-row' }, link,
      button('invite-copy', 'online.copy', () => copyLink(link, 'online.copied', 'invite-copied')),
      button('invite-share', 'online.share', share),
      el('span', { id: 'invite-copied', className: 'copied', hidden: true })),
    qr);
  const offer = el('div', { id: 'offer', className: 'offer', hidden: true, role: 'group', 'aria-labelledby': 'offer-text' },
    el('p', { id: 'offer-text' }),
    el('span', { className: 'offer-buttons' },
      button('offer-accept', 'online.accept', () => answer('accept'), 'primary'),
      button('offer-decline', 'online.decline', () => answer('decline'))));
  const claimBox = el('div', { id: 'claim', className: 'offer claim', hidden: true, role: 'group', 'aria-labelledby': 'claim-text' },
    el('p', { id: 'claim-text' }),
    el('span', { className: 'offer-buttons' },
      button('claim-win', 'clock.claimWin', () => act(() => claim('win')), 'primary'),
      button('claim-draw', 'clock.claimDraw', () => act(() => claim('draw')))));
  box.append(invite, offer, claimBox, el('p', { id: 'presence', className: 'presence' }), el('p', { id: 'first-move', className: 'first-move', hidden: true }), phraseMenu());

  const actions = document.querySelector('.actions');
  // Hidden until the redraw says this game has them: never shown in a
  // game against the computer, even for a moment.
  actions.append(
    button('resign', 'online.resign', () => confirmThen($('resign'), 'online.resignConfirm', () => act(() => api.resign(game().id))), '', true),
    button('abort', 'online.abort', () => confirmThen($('abort'), 'online.abortConfirm', () => act(() => api.abort(game().id))), '', true),
    button('offer-draw', 'online.offerDraw', () => act(() => api.offer(game().id, 'draw', 'offer')), '', true),
    button('offer-takeback', 'online.offerTakeback', () => act(() => api.offer(game().id, 'takeback', 'offer')), '', true));

  const seatLink = el('input', { id: 'seat-link', type: 'text', readOnly: true, className: 'link', dir: 'ltr' });
  seatLink.setAttribute('aria-labelledby', 'seat-link-text');
  const details = el('details', { id: 'seat-move', className: 'seat-move', hidden: true },
    el('summary', { id: 'seat-move-summary' }),
    el('p', { id: 'seat-link-text', className: 'warn' }),
    el('div', { className: 'link-row' }, seatLink, button('seat-copy', 'online.copy', () => copyLink(seatLink, 'online.seatCopied', 'seat-copied')),
      el('span', { id: 'seat-copied', className: 'copied', hidden: true })));
  $('game-info').after(el('p', { id: 'game-clock', className: 'game-info', hidden: true }), details, phraseSetting());
  for (const p of [0, 1]) document.querySelector('.board-wrap').append(el('p', { id: 'phrase-' + p, className: 'phrase-bubble', hidden: true, 'aria-hidden': 'true' }));
  $('replay-bar').querySelector('.where').after(el('span', { id: 'replay-took', className: 'took', hidden: true }));
  details.addEventListener('toggle', () => { if (details.open) $('seat-link').scrollIntoView({ block: 'nearest' }); });
}

// confirmThen asks for a second press of b within five seconds before
// doing a grave thing (resigning, aborting).
function confirmThen(b, key, go) {
  if (b.dataset.armed) {
    delete b.dataset.armed;
    b.textContent = t(b.dataset.i18n);
    go();
    return;
  }
  b.dataset.armed = '1';
  b.textContent = t(key);
  announce(t(key));
  setTimeout(() => {
    if (!b.dataset.armed) return;
    delete b.dataset.armed;
    b.textContent = t(b.dataset.i18n);
  }, 5000);
}

async function act(request) {
  try {
    app.show(await request());
  } catch (e) {
    if (e instanceof APIError && e.state) app.show(e.state);
    app.fail(e);
  }
}

function answer(action) {
  const o = game()?.offer;
  if (!o) return;
  act(() => api.offer(game().id, o.kind, action));
}

// claim claims the game the other player left (docs/API.md, "Clocks"):
// result "win" or "draw".
function claim(result) {
  const id = game().id;
  return call('POST', `/api/games/${id}/claim`, { result }, id);
}

// rematch offers a rematch, or accepts the friend's.
export function rematch() {
  const o = game()?.offer;
  const accept = o && o.kind === 'rematch' && o.by !== me();
  act(() => api.offer(game().id, 'rematch', accept ? 'accept' : 'offer'));
}

function inviteLink(id) { return `${location.origin}/?game=${encodeURIComponent(id)}`; }

// copyLink copies input's link; where (an element beside the button)
// then says it was copied, or that it could not be and is selected to be
// copied by hand.
async function copyLink(input, key, where) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.focus();
    input.select();
    key = 'copy.failed';
  }
  const now = { where, key };
  copied = now;
  announce(t(key));
  invalidate();
  setTimeout(() => { if (copied === now) { copied = null; invalidate(); } }, 6000);
}

async function share() {
  try {
    await navigator.share({ title: t('app.title'), text: t('online.shareText'), url: $('invite-link').value });
  } catch { /* the player closed the sheet */ }
}

// render draws the online parts for the game shown (hidden in other
// modes) and announces what changed since the last call: a friend who
// joined or left, an offer made or answered. What a player may do (abort,
// take back) is the server's word (canAbort, canTakeback).
function render() {
  const st = game();
  const online = isOnline();
  const mine = online ? me() : null;
  const other = mine === null ? null : 1 - mine;
  const p = (st && st.presence) || { seats: [false, false], watchers: 0, taken: [false, false] };
  const joined = other === null || !!(p.taken && p.taken[other]);
  const offer = online ? st.offer : null;
  const playing = mine !== null && !st.over;
  const abort = playing && !!st.canAbort[mine];
  const linked = !/conn/.test(S.link); // they need the server: the status says it is away
  visible($('online'), online);
  setButton($('abort'), abort, linked);
  setButton($('resign'), playing && !abort, linked);
  setButton($('offer-draw'), playing, joined && !offer && linked);
  setButton($('offer-takeback'), playing, !!st?.canTakeback?.[mine] && !offer && linked);
  visible($('seat-move'), mine !== null);
  // The time control under what the game is; in a replay, the time the
  // move shown took.
  setText($('game-clock'), st?.clock ? controlText(st.clock) : '');
  visible($('game-clock'), !!st?.clock);
  const took = S.replay && !S.replay.record && st?.over ? tookText(st, S.replay.index) : '';
  setText($('replay-took'), took);
  visible($('replay-took'), !!took);
  drawClocks();
  drawPhrases(st, online, mine, joined, linked);
  if (!online) { seen = null; return; }
  learnNames(st);
  // A store's heading takes the direction of the name in it, so that a
  // long one cut short keeps its start (a Latin name on a Persian page).
  for (const n of document.querySelectorAll('.store-name:not([dir])')) n.dir = 'auto';
  // What the game is (view.js: "Play a friend online", its variants):
  // against whom, for a player whose opponent is named.
  const vs = mine === null ? '' : versus(st.id, names.get(st.id).players, mine);
  const info = $('game-info');
  if (vs && !info.textContent.startsWith(vs)) setText(info, [vs, ...info.textContent.split(' · ').slice(1)].join(' · '));

  // The invitation, while the friend has not come.
  const inviting = mine !== null && !joined && !st.over;
  visible($('invite'), inviting);
  if (inviting) {
    const link = inviteLink(st.id);
    setText($('invite-heading'), t('online.inviteHeading'));
    setText($('invite-text'), t('online.inviteText'));
    if ($('invite-link').value !== link) {
      $('invite-link').value = link;
      $('invite-qr').src = `/api/qr.svg?url=${encodeURIComponent(link)}`;
    }
    $('invite-qr').alt = t('online.qrAlt');
    visible($('invite-share'), !!navigator.share);
  }
  setText($('invite-clock'), inviting && st.clock ? t('clock.inInvite', { control: controlText(st.clock) }) : '');
  visible($('invite-clock'), inviting && !!st.clock);
  const claiming = playing && !!st.canClaim?.[mine];
  visible($('claim'), claiming);
  if (claiming) drawClaim(st, performance.now());
  setButton($('claim-win'), true, linked);
  setButton($('claim-draw'), true, linked);

  // Who is here: what the server last said, unless this page's own
  // connection is down (then nobody here can tell), and a player whose
  // connection dropped told from one who left the page.
  const watchers = p.watchers && linked ? ' · ' + plural('online.watchers', p.watchers) : '';
  const dropped = p.dropped || [false, false];
  let here;
  // Not yet connected, or no longer: the words say which.
  const unknown = S.link === 'connecting' ? 'Connecting' : 'Unknown';
  if (!linked) here = mine !== null ? aboutOther('online.presence' + unknown) : t('online.watch' + unknown);
  else if (mine !== null) here = joined ? aboutOther(p.seats[other] ? 'online.friendHere' : dropped[other] ? 'online.friendDropped' : 'online.friendAway') : t('online.friendNotYet');
  else here = [0, 1].map((q) => `${playerName(q)} ${p.seats[q] ? '●' : '○'}${dropped[q] ? ` (${t('online.seatDropped')})` : ''}`).join(' · ');
  setText($('presence'), here + watchers);
  $('presence').classList.toggle('away', !linked || (mine !== null && joined && !p.seats[other]));
  for (const id of ['invite-copied', 'seat-copied']) {
    const say = copied && copied.where === id ? t(copied.key) : '';
    setText($(id), say);
    visible($(id), !!say);
  }
  tell(st, mine, joined, p);

  // The offer waiting for an answer, or the answer to this page's.
  const answer = !offer && answered && answered.id === st.id && answered.ply === st.ply && (!st.over || answered.key === 'online.declined.rematch') ? answered : null;
  visible($('offer'), (!!offer && !(st.over && offer.kind !== 'rematch')) || !!answer);
  $('offer').classList.toggle('answered', !!answer);
  if (offer) {
    const fromMe = offer.by === mine;
    setText($('offer-text'), offerText(offer, mine));
    visible($('offer-accept'), !fromMe && mine !== null);
    visible($('offer-decline'), !fromMe && mine !== null);
  } else if (answer) {
    setText($('offer-text'), aboutOther(answer.key));
    visible($('offer-accept'), false);
    visible($('offer-decline'), false);
  }

  if (mine !== null) {
    setText($('seat-move-summary'), t('online.seatMove'));
    setText($('seat-link-text'), t('online.seatWarn'));
    const link = `${inviteLink(st.id)}#seat=${secretOf(st.id)}`;
    if ($('seat-link').value !== link) $('seat-link').value = link;
  }
}

// Preset phrases (issue 21: no free text) ---------------------------------

// PHRASES are the ids the server takes ({"type":"phrase"} on the game's
// socket), in the menu's order; their words are the i18n keys phrase.ID.
const PHRASES = ['hello', 'good_luck', 'good_game', 'well_played', 'thanks'];
const PHRASES_KEY = 'oanquan.phrases'; // 'off': phrases neither shown nor offered
const PHRASE_SHOWN = 5000; // ms a phrase said stays by its player's side
// said holds the phrase each seat said last, {id, game, phrase, timer},
// shown until its timer ends; refusal the key of the server's last
// refusal of this page's phrase, said under the menu for a while.
const said = [null, null];
let refusal = null;

function phrasesOn() {
  try { return localStorage.getItem(PHRASES_KEY) !== 'off'; } catch { return true; }
}

// phraseMenu makes the menu of the phrases, under who is here.
function phraseMenu() {
  const menu = el('details', { id: 'phrase-menu', className: 'phrase-menu', hidden: true },
    el('summary', { id: 'phrase-summary', 'data-i18n': 'phrase.menu' }, t('phrase.menu')),
    el('div', { className: 'phrase-list', role: 'group', 'aria-labelledby': 'phrase-summary' },
      ...PHRASES.map((id) => button('phrase-say-' + id, 'phrase.' + id, () => sayPhrase(id)))),
    el('p', { id: 'phrase-note', className: 'phrase-note', role: 'status' }));
  return menu;
}

// phraseSetting makes the choice to have phrases or not, in the game's
// panel, kept in this browser.
function phraseSetting() {
  const box = el('input', { type: 'checkbox', id: 'phrases-on', checked: phrasesOn() });
  box.onchange = () => {
    try { localStorage.setItem(PHRASES_KEY, box.checked ? 'on' : 'off'); } catch { /* storage off */ }
    if (!box.checked) for (const p of [0, 1]) clearPhrase(p);
    invalidate();
  };
  return el('label', { id: 'phrases-setting', className: 'phrases-setting', hidden: true }, box, ' ', el('span', { 'data-i18n': 'phrase.setting' }, t('phrase.setting')));
}

// sayPhrase sends phrase id on the game's socket; the server sends it
// back to every page of the game, this one included (phrase).
function sayPhrase(id) {
  const ws = S.feed && S.feed.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify({ type: 'phrase', phrase: id }));
  $('phrase-menu').open = false;
  $('phrase-summary').focus();
}

// phrase takes a message of the game's socket about phrases: one said
// (shown by its player's side for a while, and the other's said in the
// live region), or this page's refused (why, under the menu).
export function phrase(msg) {
  const st = game();
  if (!st || !phrasesOn()) return;
  if (msg.type === 'phrase_refused') {
    refusal = { game: st.id, key: 'phrase.' + ({ rate_limited: 'tooSoon', not_a_player: 'notPlayer' }[msg.reason] || 'refused') };
    announce(t(refusal.key));
    const now = refusal;
    setTimeout(() => { if (refusal === now) { refusal = null; invalidate(); } }, PHRASE_SHOWN);
  } else if (msg.type === 'phrase' && (msg.seat === 0 || msg.seat === 1) && PHRASES.includes(msg.phrase)) {
    clearPhrase(msg.seat);
    const shown = { game: st.id, phrase: msg.phrase };
    shown.timer = setTimeout(() => { if (said[msg.seat] === shown) clearPhrase(msg.seat); }, PHRASE_SHOWN);
    said[msg.seat] = shown;
    if (msg.seat !== me()) announce(t('phrase.said', { name: playerName(msg.seat), phrase: t('phrase.' + msg.phrase) }));
  }
  invalidate();
}

function clearPhrase(p) {
  if (said[p]) clearTimeout(said[p].timer);
  said[p] = null;
  invalidate();
}

// drawPhrases offers the menu to a player whose opponent has come, while
// the page is linked, and shows each side's phrase by its row: the
// top row's above the board, the bottom row's under it.
function drawPhrases(st, online, mine, joined, linked) {
  const on = online && phrasesOn();
  visible($('phrases-setting'), online && mine !== null);
  visible($('phrase-menu'), on && mine !== null && joined);
  for (const b of $('phrase-menu').querySelectorAll('button')) b.disabled = !linked;
  const note = refusal && refusal.game === st?.id ? t(refusal.key) : '';
  setText($('phrase-note'), note);
  for (const p of [0, 1]) {
    const s = on && said[p] && said[p].game === st?.id ? said[p] : null;
    const b = $('phrase-' + p);
    visible(b, !!s);
    b.classList.toggle('top', p === (flipped() ? 0 : 1));
    if (s) setText(b, t('phrase.said', { name: playerName(p), phrase: t('phrase.' + s.phrase) }));
  }
}

// The clocks ------------------------------------------------------------

// The clocks are counted down from the server's last figures, kept with
// the instant they came (every state received, from turns.js
// watchStates, through clock.js take), recomputed at every frame while
// one runs, never added up frame by frame.
let clk = null;
let ticking = 0;
let warned = ''; // the game and ply whose low-time warning was given
// gone is since when each seat's player has been gone from the game, as
// the server counted it in the last state received ({id, since}:
// clock.js awaySince), to say how long ago they left when the game may
// be claimed.
let gone = null;

// clockEl returns seat p's clock, beside the store's name, made once.
function clockEl(p) {
  let c = $('clock-' + p);
  if (!c) {
    // A timer: its label is read when it has the focus, never announced
    // by itself (role timer is aria-live off).
    c = el('span', { id: 'clock-' + p, className: 'clock', role: 'timer', tabIndex: 0, hidden: true, 'aria-live': 'off' },
      el('span', { className: 'face', dir: 'ltr', 'aria-hidden': 'true' }));
  }
  const head = $('store-' + p).querySelector('.store-head');
  if (head && c.parentNode !== head) head.append(c);
  return c;
}

// drawClocks shows each side's clock, and the time left for a first
// move while one is timed, as they stand now; it keeps itself called
// every frame while a clock runs.
function drawClocks() {
  const snap = clk;
  const st = game();
  const on = !!(snap && st && snap.id === st.id && isOnline());
  for (const p of [0, 1]) visible(clockEl(p), on);
  visible($('first-move'), on && snap.firstMoveMs !== null && !snap.over);
  if (!on) return;
  const now = performance.now();
  const { left, first } = showing(snap, now);
  const mine = me();
  const units = { days: t('clock.d'), hours: t('clock.h'), minutes: t('clock.m'), seconds: t('clock.s') };
  for (const p of [0, 1]) {
    const c = clockEl(p);
    // m:ss reads left to right in every language; days and hours, as
    // the language writes them ("۲ روز ۲۳ ساعت" right to left).
    const dir = snap.correspondence ? 'auto' : 'ltr';
    if (c.firstChild.dir !== dir) c.firstChild.dir = dir;
    setText(c.firstChild, localDigits(formatTime(snap, left[p], units)));
    const name = p === mine ? t('clock.yourTime', { time: spokenTime(left[p], snap.correspondence) })
      : t('clock.timeOf', { name: playerName(p), time: spokenTime(left[p], snap.correspondence) });
    if (c.getAttribute('aria-label') !== name) c.setAttribute('aria-label', name);
    c.classList.toggle('running', snap.running === p);
    c.classList.toggle('low', !snap.over && low(left[p], snap.correspondence));
    c.classList.toggle('out', left[p] <= 0);
  }
  if (first !== null && !snap.over) {
    const time = snap.correspondence ? formatTime(snap, first, units) : formatTime(snap, first);
    setText($('first-move'), t(st.toMove === mine ? 'clock.firstYou' : 'clock.firstOther', { name: playerName(st.toMove), time: localDigits(time) }));
  }
  // Under 10 s on this player's running clock: heard (if sound is on)
  // and said once a turn, seen as long as it lasts.
  const key = `${snap.id}:${snap.ply}`;
  if (mine !== null && snap.running === mine && low(left[mine], snap.correspondence) && left[mine] > 0 && warned !== key) {
    warned = key;
    sound.call(true);
    announce(t('clock.lowAnnounce'));
  }
  if (!$('claim').hidden) drawClaim(st, now);
  const runs = !snap.over && (snap.running !== null || snap.firstMoveMs !== null);
  if (runs && !ticking) ticking = requestAnimationFrame(tick);
}

// drawClaim says why the game may be claimed: how long ago the other
// player left, by the server's figure.
function drawClaim(st, now) {
  const mine = me();
  const since = gone && gone.id === st.id && mine !== null ? gone.since[1 - mine] : null;
  setText($('claim-text'), since === null ? aboutOther('clock.claimText') : aboutOther('clock.claimAgo', { time: spokenTime(Math.max(0, now - since)) }));
}

function tick() {
  ticking = 0;
  drawClocks();
}

// clockShown returns the clock the page counts down from: the newest
// state's figures and the instant they came (clock.js take).
export function clockShown() { return clk; }

// controlText says a time control (docs/API.md, "Clocks": {initial,
// increment} in seconds, or {days}): "3 min + 2 s per move", "3 days
// per move".
export function controlText(c) {
  if (c.days) return plural('clock.daysPerMove', c.days);
  const min = c.initial / 60;
  return t('clock.control', { min: Number.isInteger(min) ? min : Number(min.toFixed(2)), inc: c.increment });
}

// spokenTime says a time in words ("2 minutes 41 seconds", "3 days
// 4 hours"), for screen readers and sentences.
function spokenTime(ms, correspondence = false) {
  return Object.entries(spokenParts(ms, correspondence)).map(([unit, n]) => plural('clock.' + unit, n)).join(' ');
}

// localDigits writes a clock's digits in the page's (Persian ones in fa).
function localDigits(text) {
  return text.replace(/[0-9]/g, (d) => num(Number(d)));
}

// tookText says how long the move that led to replay position index
// took, once the game is over ('' when the clock cannot say: clock.js
// tookMs): "4.2 s" under a minute, then the clock's "m:ss", or days and
// hours in correspondence.
function tookText(st, index) {
  const ms = index > 0 && st?.clock ? tookMs(st.clock, st.moves.map((_, i) => moverOf(st, i)), index - 1) : null;
  if (ms === null) return '';
  const time = ms < 60000 ? t('clock.seconds1', { s: localDigits((Math.floor(ms / 100) / 10).toFixed(1)) })
    : st.clock.days ? spokenTime(ms, true) : localDigits(formatClock(ms));
  return t('clock.took', { time });
}

// The new game's clock -------------------------------------------------------

// clockForm returns the new-game dialog's clock choice, built once
// (before the rule options) and translated.
function clockForm() {
  let box = $('newgame-clock');
  if (!box) {
    const tpl = document.createElement('template');
    tpl.innerHTML = CLOCK_FORM;
    box = tpl.content.firstElementChild;
    document.querySelector('#newgame-form .variants').before(box);
    $('newgame-form').noValidate = true; // the server says what it takes
    translateDOM(box);
    box.addEventListener('input', () => clockError(''));
  }
  return box;
}

const CLOCK_FORM = `<fieldset class="choices clock-choice" id="newgame-clock" hidden><legend data-i18n="clock.label"></legend>
      <label><input type="radio" name="clock" value="none"> <span data-i18n="clock.none"></span></label>
      <label><input type="radio" name="clock" value="realtime"> <span data-i18n="clock.realtime"></span></label>
      <label><input type="radio" name="clock" value="days"> <span data-i18n="clock.correspondence"></span></label>
      <div class="clock-more" id="clock-realtime" hidden>
        <label class="field"><span data-i18n="clock.preset"></span>
          <select name="preset" id="clock-preset"><option value="60+0"></option><option value="180+2"></option><option value="300+3"></option><option value="600+5"></option><option value="900+10"></option><option value="1800+0"></option><option value="custom" data-i18n="clock.custom"></option></select></label>
        <div class="clock-custom" id="clock-custom" hidden>
          <label class="field"><span data-i18n="clock.minutesLabel"></span> <input type="number" name="minutes" id="clock-minutes" inputmode="decimal" step="any" aria-describedby="clock-error"></label>
          <label class="field"><span data-i18n="clock.incrementLabel"></span> <input type="number" name="increment" id="clock-increment" inputmode="numeric" step="any" aria-describedby="clock-error"></label>
        </div>
      </div>
      <div class="clock-more" id="clock-days" hidden>
        <label class="field"><span data-i18n="clock.daysLabel"></span>
          <select name="days" id="clock-days-select"><option value="1"></option><option value="3"></option><option value="7"></option><option value="14"></option></select></label>
      </div>
      <p id="clock-error" class="clock-error" role="alert" hidden></p>
    </fieldset>`;

// CLOCK is the clock's settings until the player chooses: no clock; a
// preset "initial+increment" in seconds, or custom minutes and increment;
// days per move.
const CLOCK = { kind: 'none', preset: '180+2', minutes: 5, increment: 3, days: 3 };

// fillClock sets the dialog's clock choice from the settings' clock c.
export function fillClock(f, c) {
  clockForm();
  c = { ...CLOCK, ...c };
  f.elements.clock.value = c.kind;
  f.elements.preset.value = c.preset;
  f.elements.minutes.value = c.minutes;
  f.elements.increment.value = c.increment;
  f.elements.days.value = String(c.days);
  clockError('');
}

// syncClock shows the clock choice (on: a game online) and what the
// kind chosen asks for, in the page's language.
export function syncClock(f, on) {
  clockForm().hidden = !on;
  const kind = f.elements.clock.value;
  $('clock-realtime').hidden = kind !== 'realtime';
  $('clock-custom').hidden = kind !== 'realtime' || f.elements.preset.value !== 'custom';
  $('clock-days').hidden = kind !== 'days';
  for (const o of $('clock-preset').options) {
    if (o.value === 'custom') continue;
    const [initial, increment] = o.value.split('+').map(Number);
    setText(o, controlText({ initial, increment }));
  }
  for (const o of $('clock-days-select').options) setText(o, plural('clock.daysPerMove', Number(o.value)));
}

// readClock reads the dialog's clock choice, as the settings keep it.
export function readClock(f) {
  clockForm();
  return {
    kind: f.elements.clock.value || 'none', preset: f.elements.preset.value,
    minutes: f.elements.minutes.value, increment: f.elements.increment.value, days: Number(f.elements.days.value),
  };
}

// clockBody is the "clock" of a new online game's request (docs/API.md,
// "Clocks") from the settings' clock c: undefined for none, a preset or
// the minutes and seconds as entered (the server says what it takes), or
// days per move.
export function clockBody(c) {
  if (!c || c.kind === 'none') return undefined;
  if (c.kind === 'days') return { days: Number(c.days) };
  if (c.preset !== 'custom') {
    const [initial, increment] = c.preset.split('+').map(Number);
    return { initial, increment };
  }
  return { initial: Math.round(Number(c.minutes) * 60 * 1000) / 1000, increment: Number(c.increment) };
}

// clockError says, in the dialog, what is wrong with the clock chosen
// ('' for nothing).
function clockError(text) {
  setText($('clock-error'), text);
  $('clock-error').hidden = !text;
}

// clockProblem turns the server's refusal of a clock (400, naming the
// field and its range as data: error.field, reason, min, max) into the
// page's words and the field to fix; null for another refusal. The
// English message is never read.
function clockProblem(e) {
  const d = e instanceof APIError && e.status === 400 ? e.detail || {} : {};
  const name = /^clock(?:\.(initial|increment|days))?$/.exec(d.field || '');
  if (!name) return null;
  const field = { initial: 'clock-minutes', increment: 'clock-increment', days: 'clock-days-select' }[name[1]] || 'clock-preset';
  const range = d.reason === 'out_of_range' && typeof d.min === 'number' && typeof d.max === 'number';
  if (name[1] === 'initial' && range) return { text: t('clock.badInitial', { min: d.min / 60, max: d.max / 60 }), field };
  if (name[1] === 'increment' && range) return { text: t('clock.badIncrement', { min: d.min, max: d.max }), field };
  if (name[1] === 'days') return { text: t('clock.badDays'), field };
  return { text: t(name[1] && d.reason === 'not_whole' ? 'clock.whole' : 'clock.bad'), field };
}

// createClocked creates the clocked game of opts (its request's body)
// for the new-game dialog: null when the clock is refused — an empty
// field, or the server's refusal — which is then said in the dialog by
// the field to fix; another failure is thrown.
export async function createClocked(opts) {
  const f = $('newgame-form');
  const c = readClock(f);
  if (c.kind === 'realtime' && c.preset === 'custom') {
    for (const [name, key] of [['minutes', 'clock.enterMinutes'], ['increment', 'clock.enterIncrement']]) {
      if (String(c[name]).trim() === '' || !Number.isFinite(Number(c[name]))) { clockError(t(key)); $('clock-' + name).focus(); return null; }
    }
  }
  const start = $('newgame-start');
  if (start.disabled) return null;
  start.disabled = true;
  try {
    return await api.create(opts);
  } catch (e) {
    const bad = clockProblem(e);
    if (!bad) throw e;
    clockError(bad.text);
    $(bad.field).focus();
    return null;
  } finally { start.disabled = false; }
}

// visible shows e or hides it, writing only a change.
function visible(e, on) { if (e.hidden === on) e.hidden = !on; }

// offerText says what offer is, from the point of view of seat mine.
function offerText(offer, mine) {
  if (offer.by === mine) return aboutOther(`online.sent.${offer.kind}`);
  if (mine !== null) return aboutOther(`online.got.${offer.kind}`);
  return t(`online.watch.${offer.kind}`, { name: playerName(offer.by) });
}

// tell announces what changed since the last render, and calls a player
// who is in another tab when it becomes their turn.
function tell(st, mine, joined, p) {
  const now = {
    id: st.id, ply: st.ply, joined, over: st.over, here: mine !== null && p.seats[1 - mine],
    dropped: mine !== null && !!(p.dropped && p.dropped[1 - mine]),
    offer: st.offer ? `${st.offer.kind}:${st.offer.by}` : '', offerObj: st.offer,
    myTurn: mine !== null && !st.over && joined && st.toMove === mine,
    claim: mine !== null && !st.over && !!st.canClaim?.[mine], link: S.link,
  };
  const was = seen && seen.id === st.id ? seen : null;
  // While this page's connection is down, who is here is not known: what
  // was last known stands until it is back.
  if (was && /conn/.test(S.link)) Object.assign(now, { here: was.here, dropped: was.dropped });
  seen = now;
  if (!was) {
    if (mine !== null && !joined && !st.over) {
      announce(`${t('online.inviteHeading')}: ${t('online.inviteText')}`);
      const f = document.activeElement;
      if (!f || f === document.body || f.id === 'new') $('invite-copy').focus();
    }
    return;
  }
  const say = [];
  // A connection lost, and back (not one still being made: 'connecting').
  if (now.link !== was.link && [now.link, was.link].includes('reconnecting')) say.push(t(now.link === 'up' ? 'status.reconnected' : 'status.reconnecting'));
  if (!was.joined && now.joined && mine !== null) { say.push(aboutOther('online.joined')); callPlayer(aboutOther('online.titleJoined')); }
  else if (now.joined && (was.here !== now.here || was.dropped !== now.dropped) && mine !== null) {
    say.push(aboutOther(now.here ? 'online.friendBack' : now.dropped ? 'online.friendDropped' : 'online.friendLeft'));
  }
  if (now.offer !== was.offer) {
    if (now.offerObj) answered = null;
    if (now.offerObj && now.offerObj.by !== mine) {
      say.push(offerText(now.offerObj, mine) + (mine !== null ? ' ' + t('online.answerHow') : ''));
      if (mine !== null) callPlayer(t('online.titleOffer'));
    } else if (!now.offerObj && was.offerObj && was.offerObj.by === mine && mine !== null) {
      const kind = was.offerObj.kind;
      let key = '';
      if (kind === 'takeback' && now.ply < was.ply) key = 'online.takebackDone';
      else if (!(kind === 'draw' && now.over) && now.ply === was.ply) key = `online.declined.${kind}`;
      if (key) { say.push(aboutOther(key)); answered = { id: st.id, ply: st.ply, key }; }
    }
  }
  if (now.myTurn && !was.myTurn) callPlayer(t('online.titleTurn'));
  if (now.claim && !was.claim) say.push(`${aboutOther('clock.claimText')} ${t('clock.claimHow')}`);
  // The clock's endings, said once: the flag, the first move's limit.
  if (now.over && !was.over && st.clock && st.result) {
    const loser = 1 - st.result.winner;
    if (st.end === 'timeout') say.push(t(loser === mine ? 'clock.flagYou' : 'clock.flag', { name: playerName(loser) }));
  }
  if (now.over && !was.over && st.clock && st.end === 'abort') say.push(t(st.endReason === 'firstMove' ? 'why.abortFirstMove' : 'why.abort'));
  if (say.length) announce(say.join(' '));
}

// callPlayer tells a player whose tab is hidden that something needs
// them: the tab's title changes (to what, then the page's), and a chime sounds.
function callPlayer(what) {
  if (!document.hidden) return;
  document.title = `${what} — ${TITLE}`;
  sound.call();
}

// openFromLink handles a page opened on an online game: a player with a
// seat plays it; someone without a secret takes the free seat if there is
// one, else watches. It returns the state to show.
export async function openFromLink(st) {
  if (st.mode !== 'online' || st.over) return st;
  try {
    if (secretOf(st.id)) return await api.join(st.id); // learns the seat
    const p = st.presence || {};
    if (p.taken && p.taken[0] && p.taken[1]) return st;
    const joined = await api.join(st.id);
    announce(t('online.youJoined'));
    return joined;
  } catch (e) {
    if (e instanceof APIError && e.code === 'seat_taken') return st;
    throw e;
  }
}

// Names (issue 21) -----------------------------------------------------------

// A game's seats are named by their accounts (GET /api/games/{id}/players);
// a seat without one is "Opponent" in a game the lobby paired, "Your
// friend" in one made by a link. LOBBY_KEY keeps the ids of the games the
// lobby paired this browser in (the server does not say), the latest last.
const LOBBY_KEY = 'oanquan.lobby';
const fromLobby = new Set(readLobby());
// names holds, by game id, {taken, players}: the seats' usernames (null
// for none), asked again when a seat is taken (a friend joining).
const names = new Map();

function readLobby() {
  try { return JSON.parse(localStorage.getItem(LOBBY_KEY) || '[]'); } catch { return []; }
}

// markLobby notes that game id was paired by the lobby (lobby.js).
export function markLobby(id) {
  fromLobby.add(id);
  try { localStorage.setItem(LOBBY_KEY, JSON.stringify([...fromLobby].slice(-200))); } catch { /* storage off */ }
}

// learnNames asks who plays each seat of online game st, once for each
// set of seats taken; the page is drawn again with the names.
function learnNames(st) {
  const taken = String(st.presence?.taken);
  const had = names.get(st.id);
  if (had && had.taken === taken) return;
  const now = { taken, players: had ? had.players : [] };
  names.set(st.id, now);
  call('GET', `/api/games/${st.id}/players`).then((v) => {
    now.players = (v.players || []).map((x) => x?.username || null);
    invalidate();
  }, () => { now.taken = ''; }); // asked again when the seats change
}

// isolate keeps a name's writing apart from the sentence around it (a
// Latin name in Persian, an Arabic-script one in English), as <bdi> does
// in markup: the names go into text, labels and the tab's title.
export function isolate(name) { return `\u2068${name}\u2069`; }

// named names seat p of the online game shown for state.js playerName:
// its account's username; "Opponent" for the other seat of a game the
// lobby paired; undefined otherwise (a friend by link, players 1 and 2
// for a watcher).
function named(p) {
  const st = game();
  if (!st || !isOnline() || S.replay?.record) return undefined; // a record pasted: its players 1 and 2
  const u = names.get(st.id)?.players[p];
  if (u) return isolate(u);
  return fromLobby.has(st.id) && me() === 1 - p ? t('lobby.opponent') : undefined;
}

// aboutOther says the sentence of key about the other player: by name
// (lobby.KEY, with {name}) when named says one, else as a friend (KEY).
function aboutOther(key, vars) {
  const mine = me();
  const name = mine === null ? undefined : named(1 - mine);
  return name ? t('lobby.' + key, { ...vars, name }) : t(key, vars);
}

// versus says whom seat plays in online game id, with the seats'
// usernames: by the other's name, as a lobby's opponent, or '' for a
// friend by link.
function versus(id, seats, seat) {
  const other = seats[1 - seat];
  return other ? t('lobby.gameWith', { name: isolate(other) }) : fromLobby.has(id) ? t('lobby.gameLobby') : '';
}

// gameNames asks who plays each seat of the online games of Your games,
// as aboutGame reads it: {id: [username|null, username|null]}.
async function gameNames(states) {
  const online = states.filter((g) => g.mode === 'online');
  const got = await Promise.all(online.map((g) => call('GET', `/api/games/${g.id}/players`).catch(() => null)));
  return Object.fromEntries(online.map((g, i) => [g.id, (got[i]?.players || []).map((x) => x?.username || null)]));
}

// Your games ---------------------------------------------------------------

// showGames opens the list of the games this browser holds a seat in.
export async function showGames() {
  let dlg = $('games');
  if (!dlg) {
    dlg = el('dialog', { id: 'games', 'aria-labelledby': 'games-title' },
      el('h2', { id: 'games-title' }),
      el('ul', { id: 'games-list', className: 'games-list' }),
      el('div', { className: 'dialog-buttons' }, button('games-close', 'button.close', () => dlg.close())));
    document.body.append(dlg);
  }
  $('games-title').textContent = t('games.heading');
  $('games-close').textContent = t('button.close');
  const list = $('games-list');
  list.textContent = '';
  list.append(el('li', { className: 'none' }, t('games.loading')));
  if (!dlg.open) dlg.showModal();
  const ids = heldGames().slice(0, 20);
  // A game not begun against the computer or at one device (the one a
  // first visit starts, say) has nothing to come back to.
  const states = (await Promise.all(ids.map((id) => api.get(id).catch(() => null))))
    .filter((g) => g && (g.moves.length > 0 || g.mode === 'online'));
  // The most urgent first: the clocked games where it is this player's
  // move, the least time left first (clock.js urgency); the rest as they
  // were, the latest first.
  states.sort((a, b) => urgency(a, seatOf(a.id)) - urgency(b, seatOf(b.id)) || 0);
  const who = await gameNames(states);
  list.textContent = '';
  if (!states.length) list.append(el('li', { className: 'none' }, t('games.none')));
  for (const g of states) {
    const b = el('button', { type: 'button', className: 'game-row', onclick: () => { dlg.close(); app.open(g.id); } },
      el('span', { className: 'what' }, gameTitle(g, who[g.id])),
      el('span', { className: 'turn' }, gameTurn(g)));
    if (g.id === game()?.id) b.setAttribute('aria-current', 'true');
    list.append(el('li', {}, b));
  }
  list.querySelector('button')?.focus();
}

// gameTitle says who the game is against (online, by the other seat's
// account in seats, else a lobby's opponent or a friend), since when, and
// how many moves it has.
function gameTitle(g, seats = []) {
  const seat = seatOf(g.id);
  const online = (seat !== null && versus(g.id, seats, seat)) || t('mode.online');
  const parts = [g.mode === 'ai' ? `${t('mode.ai')} (${t('level.' + g.level)})` : g.mode === 'online' ? online : t('mode.local')];
  const when = keptSince(g.id);
  if (when) parts.push(new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(when));
  parts.push(plural('games.moves', g.moves.length));
  return parts.join(t('games.sep')); // " · ", but not where a dot is a digit (Persian ۰)
}

// gameTurn says how the game stands: its result, or whose turn it is and
// the score in points (the server's), the player's own first.
function gameTurn(g) {
  const seat = g.mode === 'ai' ? g.human : g.mode === 'online' ? seatOf(g.id) : null;
  const mine = seat ?? 0;
  const pts = (p) => (g.over && g.result ? g.result.players[p].total : g.stores[p].points);
  const score = `${num(pts(mine))}–${num(pts(1 - mine))}`;
  if (g.over) {
    if (g.end === 'abort') return t('games.aborted');
    const w = g.result ? g.result.winner : null;
    if (w !== 0 && w !== 1) return t('games.draw', { score });
    if (seat === null) return t('games.playerWon', { name: t(w === 0 ? 'player.p1' : 'player.p2'), score: `${num(pts(w))}–${num(pts(1 - w))}` });
    return t(w === seat ? 'games.won' : 'games.lost', { score });
  }
  const standing = t('games.standing', { turn: turnText(g, seat), score });
  // A clock running, or a first move timed: the time left of the side to
  // move (days and hours in correspondence), as the server gave it.
  const c = g.clock;
  if (!c || !(c.running === 0 || c.running === 1 || c.firstMoveMs)) return standing;
  const ms = c.firstMoveMs ?? c.remaining[c.running];
  const units = { days: t('clock.d'), hours: t('clock.h'), minutes: t('clock.m'), seconds: t('clock.s') };
  const time = localDigits(formatTime({ correspondence: !!c.days }, ms, units));
  return `${standing}${t('games.sep')}${t('games.timeLeft', { time })}`;
}

function turnText(g, seat) {
  if (seat === null) return t('games.playing');
  if (g.mode === 'online' && g.presence && !g.presence.taken[1 - seat]) return t('games.waiting');
  return t(g.toMove === seat ? 'games.yourTurn' : 'games.theirTurn');
}

// follow goes to the rematch once the server has made it: the players
// keep their seats (the same secrets act in it), the watchers watch it.
export function follow(st) {
  if (!st.next || st.next === follow.last) return false;
  follow.last = st.next;
  const secret = secretOf(st.id);
  if (secret) keepSecret(st.next, secret, me() ?? undefined);
  if (fromLobby.has(st.id)) markLobby(st.next);
  announce(t('online.rematchStarts'));
  app.open(st.next);
  return true;
}

// keepFromLink keeps the seat secret a private link carries (#seat=…)
// for game id, and takes it out of the address bar.
export function keepFromLink(id) {
  const m = /^#seat=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m || !id) return;
  keepSecret(id, m[1]);
  history.replaceState(null, '', location.pathname + location.search);
}
