// The view draws the page from the page's state (S) and the pipeline's
// snapshot in one batched redraw per animation frame (whatever changes
// them calls invalidate), and speaks through the live region. Each part
// of the page has one drawer here, or one that a module loaded later
// adds (addDrawer), called in the same redraw.

import { t, num, plural } from './i18n.js';
import { updateBoard, renderStore, cellEl, squareOf } from './board.js';
import { $, el, setText, setAttr } from './dom.js';
import { S, isAI, isOnline, human, me, playerName, ownerWord, legalSet, legalCells, moveFor, screenDir, canUndo, moverOf, snapshot } from './state.js';

export const board = $('game-board');
const arrows = el('div', 'arrows');
arrows.innerHTML = '<button type="button" class="arrow" data-dir="left">◀</button><button type="button" class="arrow" data-dir="right">▶</button>';

let dirty = false;
let waiters = [];
const drawers = [];

// addDrawer has fn draw its part of the page in every redraw.
export function addDrawer(fn) { drawers.push(fn); }

// invalidate asks for a redraw in the next animation frame, or at once
// in a hidden tab, where the browser runs no animation frames: a player
// in another tab is still told of their turn (the title, the chime).
export function invalidate() {
  if (dirty) return;
  dirty = true;
  schedule();
}

let scheduled = 0; // the redraw due: an older one that runs late does nothing

function schedule() {
  const n = ++scheduled;
  const run = () => {
    if (n !== scheduled) return;
    flush();
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };
  if (document.hidden) setTimeout(run, 0);
  else requestAnimationFrame(run);
}

// A redraw waiting for a frame when the tab is hidden would wait until
// it is shown again.
document.addEventListener('visibilitychange', () => { if (document.hidden && dirty) schedule(); });

// flush redraws now if due: after input, so the next key finds the page
// as it answered the last.
export function flush() {
  if (!dirty) return;
  dirty = false;
  draw();
}

// frame resolves once the next redraw is done.
export function frame() {
  return new Promise((resolve) => { waiters.push(resolve); invalidate(); });
}

function classesFor(c, legal, v) {
  const k = [];
  if (legal.has(c)) k.push('legal');
  if (S.selected === c) k.push('selected');
  if (v.active === c && v.phase === 'showing') k.push('active');
  const m = S.replay && S.replay.marks;
  if (m) {
    if (m.played === c) k.push('played', 'played-' + m.playedDir);
    if (m.better === c) k.push('better', 'better-' + m.betterDir);
  }
  const last = v.last;
  if (S.pending && S.pending.cell === c) k.push('pending', 'pending-' + S.pending.dir);
  if (last && !S.replay) {
    if (last.start.has(c)) k.push('last-start');
    if (last.path.has(c)) k.push('last-path');
    if (last.capture.has(c)) k.push('last-capture');
    if (last.stop === c) k.push('stopped');
  }
  return k;
}

// draw redraws everything.
export function draw() {
  const v = snapshot();
  const st = v.state;
  const showing = v.phase === 'showing';
  const model = S.replay ? S.replay.model : v.model;
  setText($('status'), statusText());
  const alert = S.alert ? S.alert() : '';
  setText($('alert'), alert);
  $('alert').hidden = !alert;
  drawControls(st);
  board.inert = !model; // no game yet: empty squares, nothing to name or press
  if (!model) return;
  const legal = legalCells();
  updateBoard(board, model, { owner: ownerWord, classes: (c) => classesFor(c, legal, v), stoneValue: st?.stoneValue });
  for (const b of board.querySelectorAll('button.cell')) {
    const ok = legal.has(Number(b.dataset.cell));
    setAttr(b, 'aria-disabled', ok ? 'false' : 'true');
    if (b.tabIndex !== (ok ? 0 : -1)) b.tabIndex = ok ? 0 : -1;
  }
  const on = (p) => !showing && !S.replay && st && !st.over && st.toMove === p;
  const [a, b] = model.stores.map((s) => s.points);
  renderStore($('store-0'), model.stores[0], playerName(0), on(0), a - b);
  renderStore($('store-1'), model.stores[1], playerName(1), on(1), b - a);
  renderArrows(legal);
  $('table').classList.toggle('choosing', !!arrows.parentNode);
  $('status').classList.toggle('thinking', !!(st && !showing && !st.over && (v.thinking || st.thinking)));
  $('status').classList.toggle('trouble', !!(S.pending?.retrying || (unlinked() && !showing)));
  $('watching').hidden = !S.watching;
  $('skip').disabled = !(showing || (st && st.thinking && isAI()));
  setButton($('undo'), !isOnline(), canUndo() && v.phase === 'idle' && !S.replay);
  setButton($('hint'), !isOnline(), !!st?.canHint && legal.size > 0);
  setAttr($('sound'), 'aria-pressed', String(!!S.settings.sound));
  // Its state in words too, not only a strike through ♪ (aria-pressed says it).
  setText($('sound').querySelector('.state'), t(S.settings.sound ? 'sound.on' : 'sound.off'));
  drawRematch(st);
  drawMoves(st);
  drawLog(v.turns);
  drawReplay(st, showing);
  for (const fn of drawers) fn();
}

// setButton shows button b or not, usable or not, writing only what changed.
export function setButton(b, shown, usable = true) {
  if (b.hidden === shown) b.hidden = !shown;
  if (b.disabled === usable) b.disabled = !usable;
}

// drawControls sets this game's controls (difficulty, animation, what
// game it is) for each state shown and each language: a setting just
// changed keeps its place until the server's state says it took.
let controlsFor = [];

function drawControls(st) {
  const now = [st, t('mode.ai'), S.settings.anim];
  if (now.every((x, i) => x === controlsFor[i])) return;
  controlsFor = now;
  $('level').value = st?.level || S.settings.level;
  $('anim').value = S.settings.anim;
  $('level-field').hidden = !isAI();
  const info = st ? [t('mode.' + st.mode)] : [];
  for (const v of st?.variants || []) info.push(t('variant.' + v).split(':')[0]);
  setText($('game-info'), info.join(' · '));
}

// drawRematch draws the ending dialog's Rematch: two players here, or
// online, where it offers a rematch or accepts the friend's.
function drawRematch(st) {
  const b = $('result-rematch');
  const o = st && isOnline() && st.offer && st.offer.kind === 'rematch' ? st.offer : null;
  const mine = o && o.by === me();
  setText(b, t(mine ? 'online.rematchSent' : o ? 'online.rematchAccept' : 'button.rematch'));
  setButton(b, isOnline() ? me() !== null && st.over && !st.next : !isAI(), !mine);
}

function renderArrows(legal) {
  const moves = legalSet();
  if (S.selected === null || !legal.has(S.selected)) {
    if (arrows.parentNode) {
      const had = arrows.contains(document.activeElement);
      arrows.remove();
      if (had && S.selected !== null) cellEl(board, S.selected)?.focus();
    }
    return;
  }
  const slot = cellEl(board, S.selected).parentNode;
  if (arrows.parentNode !== slot) slot.append(arrows);
  arrows.style.setProperty('--col', slot.style.gridColumn); // where they sit under the board (phones)
  for (const b of arrows.querySelectorAll('button')) {
    const move = moveFor(S.selected, b.dataset.dir);
    const name = t(b.dataset.dir === 'left' ? 'sow.left' : 'sow.right');
    b.hidden = !moves.has(move);
    setAttr(b, 'aria-label', S.hinted === move ? t('hint.arrow', { name }) : name);
    b.title = `${name} (${move})`;
    b.classList.toggle('hinted', S.hinted === move);
  }
}

// unlinked says whether an online game's feed is down: both players
// and the watchers then read it (S.link's word) at the board.
const unlinked = () => isOnline() && /conn/.test(S.link);

export function statusText() {
  const { state: st, phase, hand, thinking } = snapshot();
  if (!st) return t(S.offline || 'status.connecting');
  if (S.replay) return replayWhere('replay.status', S.replay);
  if (phase === 'showing') return hand > 0 ? `${t('status.sowing')} ${t('inHand', { n: hand })}` : t('status.sowing');
  if (S.pending) return t(S.pending.retrying ? 'status.resending' : 'status.sending');
  if (st.over) return t('status.over');
  if (unlinked()) return t('status.' + S.link);
  if (S.watching) return t('status.watchTurn', { name: playerName(st.toMove) });
  if (S.hinted && S.selected !== null && legalCells().has(S.selected)) {
    return t('hint.msg', { move: S.hinted, square: squareOf(S.selected), arrow: screenDir(S.hinted) === 'left' ? '◀' : '▶' });
  }
  if (S.selected !== null && legalCells().has(S.selected)) return t('status.pickDirection', { square: squareOf(S.selected) });
  if (isAI()) {
    if (st.toMove === human()) return t('status.yourTurn');
    return t(thinking || st.thinking ? 'status.thinking' : 'status.computerTurn');
  }
  const mine = me();
  if (mine !== null) {
    const p = st.presence;
    if (st.toMove === mine) return t('status.yourTurn');
    // By name (S.named), or a friend.
    return t(p && p.taken && !p.taken[1 - mine] ? 'online.waitJoin' : S.named?.(1 - mine) ? 'status.watchTurn' : 'online.theirTurn', { name: playerName(1 - mine) });
  }
  return t('status.playerTurn', { name: playerName(st.toMove) });
}

// The move list: two moves a row, each numbered as the turn log, the
// replay and the review number it (1 for the game's first move), the
// latest scrolled into view without cutting a row.
let movesKey = '';

function drawMoves(st) {
  const ol = $('moves');
  const key = st ? `${st.id}|${st.moves.join(' ')}|${t('moves.empty')}|${num(1)}|${playerName(0)}` : '';
  if (key === movesKey) return;
  movesKey = key;
  ol.textContent = '';
  if (!st || !st.moves.length) {
    ol.append(el('li', 'none', t('moves.empty')));
    return;
  }
  let li = null;
  st.moves.forEach((m, i) => {
    const p = moverOf(st, i);
    if (i % 2 === 0) {
      li = el('li');
      ol.append(li);
    }
    li.append(el('span', 'n', num(i + 1) + '.'));
    const mv = el('span', 'mv', m);
    mv.dataset.player = p;
    mv.dataset.by = ((st.history || [])[i] || {}).by || '';
    mv.title = playerName(p);
    if (i === st.moves.length - 1) mv.setAttribute('aria-current', 'true');
    li.append(el('span', 'sr-only', playerName(p)), mv);
  });
  ol.scrollTop = ol.scrollHeight; // rows are of one height: the last one shows whole
}

// The turn log: every turn of the game, the latest open, the others
// folded. It is drawn by additions: a new turn, a new line of one.
let logLang = '';

function drawLog(turns) {
  const box = $('turns');
  const lang = t('log.heading');
  const key = `${lang} ${turns.map((e) => e.key).join(',')} ${turns.at(-1)?.items.length} ${S.notes.length} ${S.notes[0]?.()}`;
  if (key === box.key) return;
  box.key = key;
  if (lang !== logLang) { box.textContent = ''; logLang = lang; }
  // A row per log entry (turns.js logTurn: its key), never per ply.
  const rows = new Map([...box.querySelectorAll('details')].map((d) => [Number(d.dataset.key), d]));
  for (const [k, d] of rows) if (!turns.some((e) => e.key === k)) { d.remove(); rows.delete(k); }
  const first = turns.length ? turns[0].ply : 0;
  let changed = false;
  turns.forEach((e, i) => {
    let d = rows.get(e.key);
    const last = i === turns.length - 1;
    if (!d) {
      // data-move: the move in notation; its title says it in words.
      d = el('details', { 'data-key': e.key, 'data-move': e.move },
        el('summary', {}, el('span', 'n', num(e.ply - first + 1) + '.'), ' ', e.title()), el('ol'));
      box.insertBefore(d, box.querySelector(`details[data-key="${turns[i + 1]?.key}"]`) || box.querySelector('.note, .none'));
      if (!last) d.open = false;
      changed = true;
    }
    if (last && !d.dataset.seen) {
      d.dataset.seen = '1';
      d.open = true;
      for (const o of box.querySelectorAll('details[open]')) if (o !== d) o.open = false;
    }
    const ol = d.lastChild;
    for (let k = ol.childElementCount; k < e.items.length; k++) {
      ol.append(el('li', {}, e.items[k]()));
      changed = true;
    }
  });
  const notes = S.notes.map((say) => say());
  const shown = [...box.querySelectorAll('.note')].map((p) => p.textContent);
  if (notes.join('\n') !== shown.join('\n')) {
    for (const p of box.querySelectorAll('.note')) p.remove();
    for (const text of notes) box.append(el('span', 'note', text));
    changed = true;
  }
  const none = box.querySelector('.none');
  if (turns.length || notes.length) none?.remove();
  else if (!none) box.append(el('span', 'none', t('log.empty')));
  if (changed) box.scrollTop = box.scrollHeight;
}

// relog redraws the log and the move list (a language change).
export function relog() {
  logLang = '';
  $('turns').key = '';
  movesKey = '';
  invalidate();
}

// note shows a message about the page's own doings (a hint, an error,
// a copy) after the turns, until the next turn.
export function note(say, keep) {
  if (!keep) S.notes = [];
  if (say) S.notes.push(typeof say === 'function' ? say : () => say);
  invalidate();
}

// replayWhere says which position replay r shows, by the moves numbered
// as everywhere (the move list, the turn log, the review): "after move 4
// of 17", or the start.
function replayWhere(key, r) {
  const n = r.total ?? r.plies.length - 1;
  if (r.index === 0) return t(key + 'Start', { moves: plural('games.moves', n), n: num(n) });
  return t(key, { ply: num(r.index), n: num(n) });
}

function drawReplay(st, showing) {
  const bar = $('replay-bar');
  const record = !!(S.replay && S.replay.record);
  const on = ((st && st.over) || record) && !showing;
  bar.hidden = !on;
  if (!on) return;
  $('replay-review').hidden = !!S.reviewing || !st || !st.moves.length;
  $('result-open').hidden = record;
  const r = S.replay;
  setText(bar.querySelector('.where'), r ? replayWhere('replay.at', r) : t('replay.help'));
  bar.querySelector('[data-step="-1"]').disabled = r ? r.index === 0 : false;
  bar.querySelector('[data-step="1"]').disabled = !r;
}

export function announce(text) {
  const a = $('announce');
  a.textContent = '';
  // A fresh node makes screen readers speak even a repeated text.
  setTimeout(() => { a.textContent = text; }, 50);
}
