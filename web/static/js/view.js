// The view: draws the page from the state in S (board, hand, arrows,
// stores, status, moves, messages, final count) and speaks to screen
// readers through the live region.

import { t, num } from './i18n.js';
import { updateBoard, renderStore, cellEl, squareOf } from './board.js';
import { renderTallies, winnerText } from './result.js';
import { S, isAI, human, playerName, ownerWord, legalSet, legalCells, moveFor, canUndo } from './state.js';

export const $ = (id) => document.getElementById(id);

export const board = $('game-board');
const arrows = document.createElement('div');
arrows.className = 'arrows';
arrows.innerHTML = '<button type="button" class="arrow" data-dir="left">◀</button><button type="button" class="arrow" data-dir="right">▶</button>';

function classesFor(c) {
  const k = [];
  if (legalCells().has(c)) k.push('legal');
  if (S.selected === c) k.push('selected');
  if (S.active === c) k.push('active');
  if (S.last) {
    if (S.last.start.has(c)) k.push('last-start');
    if (S.last.path.has(c)) k.push('last-path');
    if (S.last.capture.has(c)) k.push('last-capture');
  }
  return k;
}

export function render() {
  if (!S.model) return;
  updateBoard(board, S.model, { owner: ownerWord, classes: classesFor });
  const legal = legalCells();
  for (const b of board.querySelectorAll('button.cell')) {
    const c = Number(b.dataset.cell);
    const ok = legal.has(c);
    b.setAttribute('aria-disabled', ok ? 'false' : 'true');
    b.tabIndex = ok ? 0 : -1;
  }
  placeHand();
  const to = S.state ? S.state.toMove : 0;
  renderStore($('store-0'), S.model.stores[0], playerName(0), !S.animating && S.state && !S.state.over && to === 0);
  renderStore($('store-1'), S.model.stores[1], playerName(1), !S.animating && S.state && !S.state.over && to === 1);
  renderArrows();
  $('status').textContent = statusText();
  $('status').classList.toggle('thinking', !!(S.state && !S.animating && isAI() && !S.state.over && S.state.toMove !== human()));
  $('skip').disabled = !S.animating;
  $('undo').disabled = !canUndo() || S.animating;
  $('hint').disabled = legal.size === 0;
  board.classList.toggle('busy', S.animating);
}

// The hand: the pebbles being sown, carried from square to square.
const hand = document.createElement('div');
hand.className = 'hand';
hand.hidden = true;
hand.setAttribute('aria-hidden', 'true');

function placeHand() {
  if (!hand.parentNode) board.parentNode.append(hand);
  if (!S.animating || S.active === null || S.hand <= 0 || S.skipping || S.settings.anim === 'off') {
    hand.hidden = true;
    return;
  }
  const wrap = board.parentNode.getBoundingClientRect();
  const r = cellEl(board, S.active).getBoundingClientRect();
  const jump = hand.hidden; // appear in place, then glide
  if (jump) hand.style.transition = 'none';
  hand.style.setProperty('--hand-ms', S.settings.anim === 'fast' ? '60ms' : '200ms');
  hand.style.transform = `translate(${Math.round(r.left - wrap.left + r.width / 2)}px, ${Math.round(r.top - wrap.top)}px)`;
  hand.textContent = num(S.hand);
  hand.hidden = false;
  if (jump) {
    void hand.offsetWidth;
    hand.style.transition = '';
  }
}

function renderArrows() {
  const legal = legalSet();
  if (S.selected === null || !legal.size || !legalCells().has(S.selected)) {
    if (arrows.parentNode) {
      const had = arrows.contains(document.activeElement);
      arrows.remove();
      if (had && S.selected !== null) cellEl(board, S.selected)?.focus();
    }
    return;
  }
  const slot = cellEl(board, S.selected).parentNode;
  if (arrows.parentNode !== slot) slot.append(arrows);
  for (const b of arrows.querySelectorAll('button')) {
    const move = moveFor(S.selected, b.dataset.dir);
    b.hidden = !legal.has(move);
    b.setAttribute('aria-label', t(b.dataset.dir === 'left' ? 'sow.left' : 'sow.right'));
    b.title = `${t(b.dataset.dir === 'left' ? 'sow.left' : 'sow.right')} (${move})`;
    b.classList.toggle('hinted', S.hinted === move);
  }
}

export function statusText() {
  const st = S.state;
  if (!st) return t('status.connecting');
  if (S.animating) return S.hand > 0 ? `${t('status.sowing')} ${t('inHand', { n: S.hand })}` : t('status.sowing');
  if (st.over) return t('status.over');
  if (S.selected !== null && legalCells().has(S.selected)) return t('status.pickDirection', { square: squareOf(S.selected) });
  if (isAI()) {
    if (st.toMove === human()) return t('status.yourTurn');
    return t(S.thinking || st.thinking ? 'status.thinking' : 'status.computerTurn');
  }
  return t('status.playerTurn', { name: playerName(st.toMove) });
}

export function renderMoves() {
  const ol = $('moves');
  ol.textContent = '';
  const st = S.state;
  if (!st || !st.moves.length) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = t('moves.empty');
    ol.append(li);
    return;
  }
  const n = st.moves.length;
  st.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = playerName((st.toMove + n - i) % 2);
    const mv = document.createElement('span');
    mv.className = 'mv';
    mv.textContent = m;
    li.append(who, ' ', mv);
    if (i === n - 1) li.setAttribute('aria-current', 'true');
    ol.append(li);
  });
  ol.scrollTop = ol.scrollHeight; // the list scrolls, never the page
}

export function renderResult() {
  const st = S.state;
  const box = $('result');
  if (!st || !st.over || !st.result || S.animating || S.queue.length) {
    box.hidden = true;
    return;
  }
  renderTallies($('tallies'), st.result, playerName);
  $('winner').textContent = winnerText(st.result, isAI() ? human() : null, playerName);
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) $('result-heading').focus();
}

// log adds a message to this turn's list. A message is a function that
// says it in the current language, so the list follows a language switch.
export function log(say, reset) {
  if (reset) S.logItems = [];
  if (say) S.logItems.push(typeof say === 'function' ? say : () => say);
  renderLog();
}

export function renderLog() {
  const ol = $('messages');
  ol.textContent = '';
  for (const say of S.logItems) {
    const li = document.createElement('li');
    li.textContent = say();
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

export function announce(text) {
  const a = $('announce');
  a.textContent = '';
  // A fresh node makes screen readers speak even a repeated text.
  setTimeout(() => { a.textContent = text; }, 50);
}
