// Playing a friend online (docs/API.md, "Playing a friend online"): the
// invitation (link, copy, share sheet, QR code), who is connected, the
// private link that moves a seat to another device, the rematch followed;
// with the offers (offers.js), the phrases (phrases.js), the clocks
// (clocks.js), the new game's clock (clockform.js), the players' names
// (names.js) and "Your games" (yourgames.js). Loaded only when needed:
// the first visit's page does without it. The server decides everything;
// this draws what it reports and sends what the player asks.

import { t, plural } from './i18n.js';
import { api } from './api.js';
import { APIError } from './errors.js';
import { secretOf, keepSecret } from './secrets.js';
import { S, me, playerName, isOnline, game } from './state.js';
import { announce, addDrawer, setButton, invalidate } from './view.js';
import { $, el, button, setText, visible } from './dom.js';
import * as sound from './sound.js';
import { useStyle } from './ending.js';
import { offerParts, drawOffer, tellOffer, rematch as offerRematch } from './offers.js';
import { phraseMenu, phraseSetting, drawPhrases, phrase } from './phrases.js';
import { init as initClocks, drawClocks, drawClaim, controlText, tookText, clockShown } from './clocks.js';
import { fillClock, syncClock, readClock, submit } from './clockform.js';
import { named, learnNames, aboutOther, versus, playersOf, pairedByLobby, markLobby } from './names.js';
import { showGames as showYourGames } from './yourgames.js';

// What the rest of the page (game.js, newgame.js, replay.js, controls.js)
// asks of online play, from the modules that do it.
export { phrase, clockShown, fillClock, syncClock, readClock };

let app = null; // {open(id), fail(e), note(say), show(st)} from game.js
let seen = null; // what the last render saw, to announce what changed
// copied is the link just copied, {where, key}: said beside its button
// for a few seconds.
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
  initClocks();
  // The clocks' styles come with them.
  document.head.append(el('link', { rel: 'stylesheet', href: '/css/clock.css' }));
  useStyle(); // the phrases'
  document.addEventListener('visibilitychange', () => { if (!document.hidden) document.title = TITLE; });
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
      button('online.copy', () => copyLink(link, 'online.copied', 'invite-copied'), { id: 'invite-copy' }),
      button('online.share', share, { id: 'invite-share' }),
      el('span', { id: 'invite-copied', className: 'copied', hidden: true })),
    qr);
  const { boxes, actions } = offerParts(app);
  box.append(invite, ...boxes, el('p', { id: 'presence', className: 'presence' }), el('p', { id: 'first-move', className: 'first-move', hidden: true }), phraseMenu());

  document.querySelector('.actions').append(...actions);

  const seatLink = el('input', { id: 'seat-link', type: 'text', readOnly: true, className: 'link', dir: 'ltr' });
  seatLink.setAttribute('aria-labelledby', 'seat-link-text');
  const details = el('details', { id: 'seat-move', className: 'seat-move', hidden: true },
    el('summary', { id: 'seat-move-summary' }),
    el('p', { id: 'seat-link-text', className: 'warn' }),
    el('div', { className: 'link-row' }, seatLink, button('online.copy', () => copyLink(seatLink, 'online.seatCopied', 'seat-copied'), { id: 'seat-copy' }),
      el('span', { id: 'seat-copied', className: 'copied', hidden: true })));
  $('game-info').after(el('p', { id: 'game-clock', className: 'game-info', hidden: true }), details, phraseSetting());
  for (const p of [0, 1]) document.querySelector('.board-wrap').append(el('p', { id: 'phrase-' + p, className: 'phrase-bubble', hidden: true, 'aria-hidden': 'true' }));
  $('replay-bar').querySelector('.where').after(el('span', { id: 'replay-took', className: 'took', hidden: true }));
  details.addEventListener('toggle', () => { if (details.open) $('seat-link').scrollIntoView({ block: 'nearest' }); });
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
  const vs = mine === null ? '' : versus(st.id, playersOf(st.id), mine);
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

  drawOffer(st, offer, mine);

  if (mine !== null) {
    setText($('seat-move-summary'), t('online.seatMove'));
    setText($('seat-link-text'), t('online.seatWarn'));
    const link = `${inviteLink(st.id)}#seat=${secretOf(st.id)}`;
    if ($('seat-link').value !== link) $('seat-link').value = link;
  }
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
  tellOffer(st, now, was, mine, say, callPlayer);
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

// rematch offers a rematch, or accepts the friend's (offers.js).
export function rematch() { offerRematch(app); }

// submitClock takes the new-game dialog's submit (clockform.js).
export function submitClock(e) { return submit(e, app); }

// showGames opens "Your games" (yourgames.js).
export function showGames() { return showYourGames(app.open); }

// follow goes to the rematch once the server has made it: the players
// keep their seats (the same secrets act in it), the watchers watch it.
export function follow(st) {
  if (!st.next || st.next === follow.last) return false;
  follow.last = st.next;
  const secret = secretOf(st.id);
  if (secret) keepSecret(st.next, secret, me() ?? undefined);
  if (pairedByLobby(st.id)) markLobby(st.next);
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
