// Offers and their answers in a game online (docs/API.md, "Playing a
// friend online"): a draw, a takeback, a rematch; resigning and aborting,
// each pressed twice; claiming a game the other player left ("Clocks").
// What a player may do is the server's word; this sends what they ask
// and draws the offer waiting, or the answer to this page's.

import { t } from './i18n.js';
import { api, call } from './api.js';
import { APIError } from './errors.js';
import { me, playerName, game } from './state.js';
import { announce } from './view.js';
import { $, el, button, setText, visible } from './dom.js';
import { aboutOther } from './names.js';

// answered is the answer to this page's offer, {id, ply, key}: shown in
// the offer's place until the game moves on.
let answered = null;

// offerParts makes the offer's and the claim's boxes, and the buttons
// that go with the game's actions, acting for the page's controller app
// (act).
export function offerParts(app) {
  const go = (request) => act(app, request);
  const offer = el('div', { id: 'offer', className: 'offer', hidden: true, role: 'group', 'aria-labelledby': 'offer-text' },
    el('p', { id: 'offer-text' }),
    el('span', { className: 'offer-buttons' },
      button('online.accept', () => answer(app, 'accept'), { id: 'offer-accept', className: 'primary' }),
      button('online.decline', () => answer(app, 'decline'), { id: 'offer-decline' })));
  const claimBox = el('div', { id: 'claim', className: 'offer claim', hidden: true, role: 'group', 'aria-labelledby': 'claim-text' },
    el('p', { id: 'claim-text' }),
    el('span', { className: 'offer-buttons' },
      button('clock.claimWin', () => go(() => claim('win')), { id: 'claim-win', className: 'primary' }),
      button('clock.claimDraw', () => go(() => claim('draw')), { id: 'claim-draw' })));
  // Hidden until the redraw says this game has them: never shown in a
  // game against the computer, even for a moment.
  const actions = [
    button('online.resign', () => confirmThen($('resign'), 'online.resignConfirm', () => go(() => api.resign(game().id))), { id: 'resign', hidden: true }),
    button('online.abort', () => confirmThen($('abort'), 'online.abortConfirm', () => go(() => api.abort(game().id))), { id: 'abort', hidden: true }),
    button('online.offerDraw', () => go(() => api.offer(game().id, 'draw', 'offer')), { id: 'offer-draw', hidden: true }),
    button('online.offerTakeback', () => go(() => api.offer(game().id, 'takeback', 'offer')), { id: 'offer-takeback', hidden: true })];
  return { boxes: [offer, claimBox], actions };
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

// act sends request for the page's controller app: show(st) shows the
// state it answers, or the refusal's, fail(e) says the refusal.
async function act(app, request) {
  try {
    app.show(await request());
  } catch (e) {
    if (e instanceof APIError && e.state) app.show(e.state);
    app.fail(e);
  }
}

function answer(app, action) {
  const o = game()?.offer;
  if (!o) return;
  act(app, () => api.offer(game().id, o.kind, action));
}

// claim claims the game the other player left (docs/API.md, "Clocks"):
// result "win" or "draw".
function claim(result) {
  const id = game().id;
  return call('POST', `/api/games/${id}/claim`, { result }, id);
}

// rematch offers a rematch, or accepts the friend's, for app (act).
export function rematch(app) {
  const o = game()?.offer;
  const accept = o && o.kind === 'rematch' && o.by !== me();
  act(app, () => api.offer(game().id, 'rematch', accept ? 'accept' : 'offer'));
}

// offerText says what offer is, from the point of view of seat mine.
function offerText(offer, mine) {
  if (offer.by === mine) return aboutOther(`online.sent.${offer.kind}`);
  if (mine !== null) return aboutOther(`online.got.${offer.kind}`);
  return t(`online.watch.${offer.kind}`, { name: playerName(offer.by) });
}

// drawOffer shows the offer waiting for an answer (offer, of the game
// st shown to seat mine), or the answer to this page's.
export function drawOffer(st, offer, mine) {
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
}

// tellOffer adds to say what changed of the offers between two renders
// (now and was: online.js tell), and has callPlayer(what) call a player in
// another tab to an offer.
export function tellOffer(st, now, was, mine, say, callPlayer) {
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
}
