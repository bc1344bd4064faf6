// Drawing the board: two rows of five squares between two mandarin
// half-moons. On screen the top row shows squares 4 3 2 1 0 and the bottom
// row 5 6 7 8 9, whatever the page's writing direction; turned round (for
// the player of squares 0 to 4 online, whose own row is then nearest
// them) the top row shows 9 8 7 6 5 and the bottom row 0 1 2 3 4.

import { t, plural, num, list } from './i18n.js';
import { drawPile } from './pebbles.js';
import { el, setText, setAttr } from './dom.js';

export const LEFT = 5;
export const RIGHT = 11;
export const TOP = [4, 3, 2, 1, 0]; // cells of the top row, screen order
export const BOTTOM = [6, 7, 8, 9, 10];

export const squareOf = (c) => (c < 5 ? c : c - 1);
export const cellOf = (s) => (s < 5 ? s : s + 1);
export const isMandarin = (c) => c === LEFT || c === RIGHT;
// ownerOf returns the player whose row holds cell c, or -1.
export const ownerOf = (c) => (c < 5 ? 1 : c > 5 && c < 11 ? 0 : -1);

// setV changes a cell's value only when it differs, as dom.js setText.
function setV(e, v) { if (e.dataset.v !== v) e.dataset.v = v; }

// onBottom says whether cell c is drawn on the bottom row.
export const onBottom = (c, flipped = false) => (flipped ? c < 5 : c > 5 && c < 11);

// screenOrder lists the squares' cells as drawn, top row first.
export function screenOrder(flipped = false) {
  return flipped ? [...BOTTOM].reverse().concat([...TOP].reverse()) : TOP.concat(BOTTOM);
}

function makeCell(c, interactive, side) {
  const mand = isMandarin(c);
  const cell = el(interactive && !mand ? 'button' : 'div', 'cell');
  cell.dataset.cell = c;
  const hide = (e) => { e.setAttribute('aria-hidden', 'true'); return e; };
  if (mand) {
    cell.classList.add('mandarin', side);
    if (interactive) cell.setAttribute('role', 'img');
    cell.append(hide(el('span', 'stone')));
  } else {
    if (interactive) cell.type = 'button';
    cell.append(hide(el('span', 'num')));
  }
  cell.append(hide(el('span', 'pile')), hide(el('span', 'count')), hide(el('span', 'empty-note')));
  return cell;
}

// createBoard fills box with the twelve cells, turned round if flipped.
// Interactive boards get a button per square, each in a slot that can
// also hold the arrows.
export function createBoard(box, interactive, flipped = false) {
  box.textContent = '';
  box.dataset.flipped = String(flipped);
  const place = (node, col, row, span) => {
    node.style.gridColumn = String(col);
    node.style.gridRow = span ? '1 / span 2' : String(row);
    box.append(node);
  };
  const [left, right] = flipped ? [RIGHT, LEFT] : [LEFT, RIGHT];
  place(makeCell(left, interactive, 'left'), 1, 1, true);
  screenOrder(flipped).forEach((c, i) => place(slot(c, i < 5), (i % 5) + 2, i < 5 ? 1 : 2));
  place(makeCell(right, interactive, 'right'), 7, 1, true);

  function slot(c, top) {
    const s = el('div', 'slot ' + (top ? 'row-top' : 'row-bottom'));
    s.append(makeCell(c, interactive));
    return s;
  }
}

export function cellEl(box, c) {
  return box.querySelector(`.cell[data-cell="${c}"]`);
}

// CLASSES are the classes updateBoard's opts.classes may give a cell.
const CLASSES = ['legal', 'selected', 'last-start', 'last-path', 'last-capture', 'active', 'hl', 'stopped',
  'played', 'played-left', 'played-right', 'better', 'better-left', 'better-right', 'pending', 'pending-left', 'pending-right'];

// updateBoard shows model on box; opts.owner(c) names a square's owner,
// opts.classes(c) lists its extra classes.
export function updateBoard(box, model, opts = {}) {
  for (let c = 0; c < 12; c++) {
    const cell = cellEl(box, c);
    if (!cell) continue;
    const n = model.cells[c];
    const cls = opts.classes ? opts.classes(c) : [];
    const stone = isMandarin(c) && model.stones[c === LEFT ? 0 : 1];
    const sig = `${n} ${stone} ${cls} ${t('square.aria')} ${opts.owner ? opts.owner(c) : ''} ${opts.stoneValue}`;
    if (cell.sig === sig) continue; // nothing changed since the last drawing
    cell.sig = sig;
    drawPile(cell.querySelector('.pile'), n, c + 1, isMandarin(c) ? 'column' : 'round');
    // Numbers are drawn by CSS from data-v, so that the visible text does
    // not compete with the button's accessible name.
    // A stone shows its worth, when the state says it; the count under it
    // is the pebbles', if any.
    const worth = stone && opts.stoneValue;
    setV(cell.querySelector('.count'), worth && !n ? '' : num(n));
    for (const k of CLASSES) {
      cell.classList.toggle(k, cls.includes(k));
    }
    cell.classList.toggle('empty', n === 0 && !stone);
    if (isMandarin(c)) {
      cell.classList.toggle('has-stone', stone);
      setV(cell.querySelector('.stone'), worth ? num(opts.stoneValue) : '');
      setV(cell.querySelector('.empty-note'), n === 0 && !stone ? t('mandarin.empty') : '');
      if (cell.hasAttribute('role')) setAttr(cell, 'aria-label', mandarinName(c, n, stone, opts.stoneValue));
    } else {
      setV(cell.querySelector('.num'), num(squareOf(c)));
      if (cell.tagName === 'BUTTON') {
        setAttr(cell, 'aria-label', t('square.aria', {
          square: squareOf(c), owner: opts.owner ? opts.owner(c) : '', pebbles: plural('pebbles', n),
        }));
      }
    }
  }
}

export function mandarinName(c, n, stone, worth) {
  const name = t(c === LEFT ? 'mandarin.left' : 'mandarin.right');
  return t('mandarin.aria', { name, contents: mandarinContents(n, stone, worth) });
}

// mandarinContents says what a mandarin square holds: "mandarin stone",
// "mandarin stone and 2 pebbles", "3 pebbles"; with the stone's worth
// when it is known, "mandarin stone (10 points) and 2 pebbles".
export function mandarinContents(n, stone, worth) {
  if (!stone) return n ? plural('pebbles', n) : t('mandarin.empty');
  const points = worth ? plural('points', worth) : '';
  if (n) return t(worth ? 'mandarin.withStoneWorth' : 'mandarin.withStone', { pebbles: plural('pebbles', n), points });
  return worth ? t('mandarin.stoneWorth', { points }) : t('mandarin.stoneOnly');
}

// parseBoard reads the board field of a position in the notation
// ("5/5/5/5/5/0*/…") into {cells, stones}, or null.
export function parseBoard(text) {
  const parts = (text || '').trim().split(/\s+/)[0].split('/');
  if (parts.length !== 12) return null;
  const cells = [];
  const stones = [false, false];
  for (let c = 0; c < 12; c++) {
    const m = /^(\d+)(\*?)$/.exec(parts[c]);
    if (!m) return null;
    cells.push(Number(m[1]));
    if (m[2]) stones[c === LEFT ? 0 : 1] = true;
  }
  return { cells, stones };
}

// parsePosition reads a position in the notation into {ply, model}.
export function parsePosition(text) {
  const f = text.trim().split(/\s+/);
  const b = parseBoard(f[0]);
  if (!b || f.length < 5) return null;
  const store = (s) => { const [pebbles, mandarins, debt] = s.split(',').map(Number); return { pebbles, mandarins, debt }; };
  return { ply: Number(f[4]), model: { cells: b.cells, stones: b.stones, stores: [store(f[2]), store(f[3])] } };
}

// renderStore shows a store: name, its points (when the state gives them)
// and by how many it leads (lead > 0), stones, pebbles as a pile and
// counted, and the debt beside the store that owes it.
export function renderStore(box, store, name, active, lead) {
  if (!box.firstChild) {
    const head = el('span', 'store-head');
    head.append(el('span', 'store-name'), el('span', 'store-stones'), el('span', 'debt'));
    const score = el('span', 'store-points');
    score.append(el('strong'), el('span', 'lead'));
    box.append(head, score, el('span', 'tray'), el('span', 'store-count'));
    box.querySelector('.tray').setAttribute('aria-hidden', 'true');
    box.querySelector('.store-stones').setAttribute('aria-hidden', 'true');
  }
  box.classList.toggle('to-move', !!active);
  setText(box.querySelector('.store-name'), name);
  const score = box.querySelector('.store-points');
  score.hidden = store.points === undefined;
  setText(score.firstChild, score.hidden ? '' : plural('points', store.points));
  setText(score.lastChild, lead > 0 ? t('store.leads', { points: plural('points', lead) }) : '');
  const stones = box.querySelector('.store-stones');
  while (stones.childElementCount > store.mandarins) stones.lastChild.remove();
  while (stones.childElementCount < store.mandarins) stones.append(el('span', 'stone'));
  drawPile(box.querySelector('.tray'), store.pebbles, box.id === 'store-0' ? 20 : 30);
  const parts = [];
  if (store.mandarins) parts.push(plural('mandarins', store.mandarins));
  parts.push(plural('pebbles', store.pebbles));
  setText(box.querySelector('.store-count'), list(parts, 'and'));
  const debt = box.querySelector('.debt');
  setText(debt, store.debt > 0 ? t('store.debt', { n: store.debt }) : '');
  debt.hidden = !(store.debt > 0);
}
