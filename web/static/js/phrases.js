// Preset phrases in a game online (issue 21: no free text): the menu a
// player says one from, each said shown for a while by its player's
// side, and the choice to have them at all, kept in this browser.

import { t } from './i18n.js';
import { S, me, playerName, flipped, game } from './state.js';
import { announce, invalidate } from './view.js';
import { $, el, button, setText, visible } from './dom.js';

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
export function phraseMenu() {
  const menu = el('details', { id: 'phrase-menu', className: 'phrase-menu', hidden: true },
    el('summary', { id: 'phrase-summary', 'data-i18n': 'phrase.menu' }, t('phrase.menu')),
    el('div', { className: 'phrase-list', role: 'group', 'aria-labelledby': 'phrase-summary' },
      ...PHRASES.map((id) => button('phrase.' + id, () => sayPhrase(id), { id: 'phrase-say-' + id }))),
    el('p', { id: 'phrase-note', className: 'phrase-note', role: 'status' }));
  return menu;
}

// phraseSetting makes the choice to have phrases or not, in the game's
// panel, kept in this browser.
export function phraseSetting() {
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
export function drawPhrases(st, online, mine, joined, linked) {
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
