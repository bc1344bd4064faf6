// Game review (docs/API.md, "Game review"): the server goes through a
// finished game move by move, each searched in the background on its
// workers; this module asks for one move after another, so that the page
// stays free and the review can be stopped, and draws what comes back: a
// graph of the score over the game, the mistakes marked by size, and, at
// each position the player steps to, the move played and the better one
// (replay.js keeps the replay; marksAt says what to mark).
// Loaded only when a review is asked for.

import { t, plural, num } from './i18n.js';
import { api } from './api.js';
import { problem, APIError } from './errors.js';
import { S, me, playerName, screenDir, game } from './state.js';
import { cellOf, parsePosition } from './board.js';
import { announce, invalidate, flush } from './view.js';
import { $, el, svg } from './dom.js';

const W = 600;
const H = 150;

let app = null; // {go(index), fail(e), closeResult()} from replay.js
// R is the review shown: {id, n, items, running, abort}, and for a pasted
// record {record, plies}: the positions, which come with the answers.
let R = null;

// ready is the review's parts, made once its styles (css/review.css)
// have loaded: what it shows is never drawn without them.
const ready = new Promise((resolve) => {
  document.head.append(el('link', { rel: 'stylesheet', href: '/css/review.css', onload: resolve, onerror: resolve }));
}).then(build);

// init wires the module to the page's replay (replay.js): go(index)
// steps it to a position, fail(e) reports an error, closeResult() closes
// the ending's dialog. The promise says the review is ready.
export function init(controller) {
  app = controller;
  return ready;
}

function build() {
  const graph = svg('svg', { id: 'review-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'review-graph-label', preserveAspectRatio: 'none' });
  graph.addEventListener('click', (e) => {
    if (!R) return;
    const box = graph.getBoundingClientRect();
    app.go(Math.round(((e.clientX - box.left) / box.width) * R.n));
  });
  const stop = el('button', { type: 'button', id: 'review-stop', onclick: toggle });
  const close = el('button', { type: 'button', id: 'review-close', onclick: end });
  const box = el('section', { id: 'review', className: 'review panel', hidden: true, 'aria-labelledby': 'review-heading' },
    el('h2', { id: 'review-heading' }),
    el('p', { id: 'review-status', className: 'review-status' }),
    graph,
    el('p', { id: 'review-legend', className: 'review-legend', 'aria-hidden': 'true' }),
    el('p', { id: 'review-graph-label', className: 'sr-only' }),
    el('p', { id: 'review-move', className: 'review-move' }),
    el('div', { className: 'review-buttons' }, stop, close),
    el('ol', { id: 'review-marks', className: 'review-marks', 'aria-labelledby': 'review-heading' }));
  $('replay-bar').after(box);
}

// begin has the finished game reviewed, from its first position.
export function begin() {
  app.closeResult();
  S.reviewing = true;
  if (S.replay && S.replay.record) S.replay = null;
  start();
  app.go(0);
}

// end ends the review, and the replay with it.
export function end() {
  S.reviewing = false;
  close();
  if (S.replay) app.go(Infinity);
  invalidate();
  flush();
}

// start reviews the game shown (over), from the first move.
function start() {
  const st = game();
  if (!st || !st.over || !st.moves.length) return;
  if (R && R.id === st.id) { show(); return; }
  stopNow();
  R = { id: st.id, n: st.moves.length, items: [], running: false };
  $('review').hidden = false;
  run();
  announce(t('review.started'));
  show();
}

// openRecord asks for a game record to review (as *Copy game record*
// gives, or from elsewhere).
export function openRecord() {
  let dlg = $('record-dialog');
  if (!dlg) {
    const text = el('textarea', { id: 'record-text', rows: 8, spellcheck: false });
    text.setAttribute('dir', 'ltr');
    dlg = el('dialog', { id: 'record-dialog', 'aria-labelledby': 'record-title' },
      el('h2', { id: 'record-title' }),
      el('label', { htmlFor: 'record-text', id: 'record-label' }),
      text,
      el('p', { id: 'record-error', className: 'error', hidden: true }),
      el('div', { className: 'dialog-buttons' },
        el('button', { type: 'button', id: 'record-start', className: 'primary', onclick: () => startRecord(text.value) }),
        el('button', { type: 'button', id: 'record-cancel', onclick: () => dlg.close() })));
    document.body.append(dlg);
  }
  $('record-title').textContent = t('review.recordHeading');
  $('record-label').textContent = t('review.recordLabel');
  $('record-start').textContent = t('review.button');
  $('record-cancel').textContent = t('button.cancel');
  $('record-error').hidden = true;
  dlg.showModal();
  $('record-text').focus();
}

// startRecord reviews a pasted record: its first move is asked for at
// once, so that a record the server refuses keeps the dialog open with
// the reason.
async function startRecord(record) {
  const error = $('record-error');
  let first;
  try {
    first = await api.reviewRecord(record, 0);
  } catch (e) {
    // A record the server cannot read: its reason names the line or field.
    const p = problem(e);
    error.textContent = e instanceof APIError && e.code === 'bad_request' ? t('review.recordBad', { reason: e.message }) : t(p.key, { n: p.n });
    error.hidden = false;
    $('record-text').focus();
    return;
  }
  $('record-dialog').close();
  stopNow();
  R = { record, n: first.moves, items: [], plies: [], running: false };
  take(R, first);
  $('review').hidden = false;
  run();
  announce(t('review.started'));
  // The record's positions replayed for its review, from the first:
  // plies fills as the review goes on.
  S.reviewing = true;
  S.replay = { record: true, plies: R.plies, index: 0, total: R.n, model: R.plies[0].model };
  app.go(0);
}

// take keeps an answer: the move's review and, for a record, the
// positions around it.
function take(r, answer) {
  r.items.push(answer);
  if (!r.plies) return;
  const i = answer.review.ply;
  r.plies[i] = parsePosition(answer.before);
  r.plies[i + 1] = parsePosition(answer.after);
}

// stopNow stops the review's requests (what came back stays).
function stopNow() {
  if (R && R.abort) R.abort.abort();
  if (R) R.running = false;
}

function toggle() {
  if (!R) return;
  if (R.running) {
    stopNow();
    announce(t('review.stopped', { n: num(R.items.length), total: num(R.n) }));
  } else {
    run();
  }
  show();
}

// close forgets the review.
function close() {
  stopNow();
  R = null;
  $('review').hidden = true;
}

// active says whether a review is shown for game id.
export function active(id) { return !!R && !!R.id && R.id === id; }

async function run() {
  const r = R;
  r.running = true;
  r.abort = new AbortController();
  while (r === R && r.running && r.items.length < r.n) {
    const ply = r.items.length;
    try {
      take(r, await (r.record ? api.reviewRecord(r.record, ply, r.abort.signal) : api.review(r.id, ply, r.abort.signal)));
    } catch (e) {
      if (r !== R || !r.running) return;
      if (e instanceof APIError && e.code === 'rate_limited') {
        await new Promise((done) => setTimeout(done, 1000 * Math.max(1, e.retryAfter || 1)));
        continue;
      }
      r.running = false;
      app.fail(e);
      show();
      return;
    }
    show();
  }
  if (r !== R) return;
  const done = r.items.length === r.n;
  r.running = false;
  show();
  if (done) announce(summary());
}

// side is the player whose point of view the graph takes: the person at
// this page, else player 0.
function side() { return me() ?? 0; }

// scoreAt is the score of position i (before move i; the last, after the
// last move) from side()'s point of view, or null while not reviewed.
function scoreAt(i) {
  const items = R.items;
  let v = null;
  if (i < items.length) v = items[i].review.before;
  else if (i === R.n && items.length === R.n) v = items[R.n - 1].review.after;
  return v === null ? null : side() === 0 ? v : -v;
}

// show draws the review as it stands, and the move at the replay's index.
export function show() {
  if (!R) return;
  $('review-heading').textContent = t('review.heading');
  const stop = $('review-stop');
  stop.textContent = t(R.running ? 'review.stop' : 'review.resume');
  stop.hidden = R.items.length === R.n;
  $('review-close').textContent = t('review.close');
  $('review-status').textContent = R.items.length === R.n
    ? t('review.done')
    : t(R.running ? 'review.progress' : 'review.paused', { n: num(R.items.length), total: num(R.n) });
  drawGraph();
  drawMarks();
  const index = S.replay ? S.replay.index : R.n;
  $('review-move').textContent = moveText(index);
  // The board marks the review's squares at the position shown.
  if (S.replay) S.replay.marks = marksAt(S.replay.index);
  invalidate();
}

// marksAt returns the squares the board marks at position index: the
// square the move was played from, and the better move's; or null.
function marksAt(index) {
  const item = R && R.items[index];
  if (!item) return null;
  const played = item.review.move;
  const best = item.review.best;
  return {
    played: cellOf(parseInt(played, 10)), playedDir: screenDir(played),
    better: best ? cellOf(parseInt(best, 10)) : null, betterDir: best ? screenDir(best) : null,
  };
}

// moveText says what the review found of the move played at position
// index.
function moveText(index) {
  if (index >= R.n) return t('review.final');
  const item = R.items[index];
  if (!item) return t('review.notYet', { n: num(index + 1) });
  return lineFor(item.review, index);
}

function lineFor(rv, index) {
  const who = playerName(rv.player);
  const parts = [t('review.played', { n: num(index + 1), name: who, move: rv.move })];
  if (rv.mark) parts.push(`${t('review.mark.' + rv.mark)}, ${plural('review.lost', rv.loss)}.`);
  if (rv.best) parts.push(t('review.better', { move: rv.best }));
  else parts.push(t('review.best'));
  if (rv.proven) parts.push(provenText(rv.before));
  return parts.join(' ');
}

// provenText says the exact result with best play of a position whose
// score (player 0's lead) was proven: every line searched to the end.
function provenText(score) {
  if (score === 0) return t('review.provenDraw');
  const winner = score > 0 ? 0 : 1;
  const n = Math.abs(score);
  if (winner === me()) return plural('review.provenYou', n);
  return plural('review.provenWin', n, { name: playerName(winner) });
}

function summary() {
  const count = (p) => {
    const by = { blunder: 0, mistake: 0, inaccuracy: 0 };
    for (const it of R.items) if (it.review.player === p && it.review.mark) by[it.review.mark]++;
    const parts = Object.entries(by).filter(([, n]) => n).map(([k, n]) => plural('review.count.' + k, n));
    return `${playerName(p)}: ${parts.length ? parts.join(', ') : t('review.clean')}`;
  };
  return `${t('review.done')} ${count(side())}. ${count(1 - side())}.`;
}

// drawGraph draws the score over the game: a line through the positions
// reviewed, the zero line, a dot for each marked move, the position shown.
function drawGraph() {
  const g = $('review-graph');
  g.textContent = '';
  const scores = [];
  for (let i = 0; i <= R.n; i++) scores.push(scoreAt(i));
  const known = scores.filter((v) => v !== null);
  const top = Math.max(10, ...known.map(Math.abs));
  const x = (i) => (R.n ? (i / R.n) * W : 0);
  const y = (v) => H / 2 - (v / top) * (H / 2 - 6);
  g.append(svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'zero' }));
  const pts = scores.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
  if (pts.length > 1) {
    g.append(svg('polygon', { points: `${x(0)},${H / 2} ${pts.join(' ')} ${x(known.length - 1)},${H / 2}`, class: 'area' }));
    g.append(svg('polyline', { points: pts.join(' '), class: 'score' }));
  }
  R.items.forEach((it, i) => {
    if (!it.review.mark) return;
    g.append(svg('circle', { cx: x(i + 1), cy: y(scoreAt(i + 1) ?? scoreAt(i)), r: 5, class: 'dot ' + it.review.mark }));
  });
  const at = S.replay ? S.replay.index : R.n;
  g.append(svg('line', { x1: x(at), x2: x(at), y1: 0, y2: H, class: 'cursor' }));
  const last = known.length ? known[known.length - 1] : 0;
  // Sentences of their own for "you": no name in them to agree with.
  const you = me() !== null;
  $('review-graph-label').textContent = t(you ? 'review.graphYou' : 'review.graph', { name: playerName(side()), n: num(known.length ? last : 0) });
  $('review-legend').textContent = t(you ? 'review.legendYou' : 'review.legend', { above: playerName(side()), below: playerName(1 - side()), other: playerName(1 - side()) });
}

// drawMarks lists the marked moves, each a button to its position.
function drawMarks() {
  const ol = $('review-marks');
  const key = `${R.items.length}|${t('review.heading')}|${side()}`;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  ol.textContent = '';
  R.items.forEach((it, i) => {
    const rv = it.review;
    if (!rv.mark) return;
    // Move i + 1, as the move list, the turn log and the replay bar number it.
    const b = el('button', { type: 'button', className: 'mark ' + rv.mark, onclick: () => { app.go(i); $('table').scrollIntoView({ block: 'nearest' }); } },
      t(rv.best ? 'review.itemBetter' : 'review.item', {
        n: num(i + 1), name: playerName(rv.player), move: rv.move, mark: t('review.mark.' + rv.mark), lost: plural('review.lost', rv.loss), better: rv.best,
      }));
    ol.append(el('li', {}, b));
  });
}

// say is what the live region says at position index.
export function say(index) { return R ? moveText(index) : ''; }
