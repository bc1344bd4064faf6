// A finished game: its ending's dialog (ending.js), the replay of its
// positions (←/→, the bar under the board), its review (review.js).

import { t } from './i18n.js';
import { parsePosition } from './board.js';
import { S, isOnline, game, snapshot } from './state.js';
import { board, invalidate, announce, statusText } from './view.js';
import { $ } from './dom.js';
import { fail, newGame, onGame, onlineShown } from './game.js';

// review and ending are review.js and ending.js, loaded when wanted;
// ends counts the dialog's closes: one asked for before a close stays shut.
let review = null;
let ending = null;
let ends = 0;

// init wires the ending's, the replay's and the review's buttons.
export function init() {
  onGame((state) => {
    closeResult();
    if (S.reviewing && review && !review.active(state.id)) review.end();
  }, (state) => {
    if (state.over) { S.shownEnd = state.id; openResult(false); }
  });
  $('result-rematch').onclick = () => {
    if (isOnline()) { onlineShown()?.rematch(); return; }
    closeResult();
    newGame({ first: game() ? 1 - game().first : 0 });
  };
  $('result-close').onclick = () => { closeResult(); board.focus(); };
  $('result-open').onclick = () => openResult();
  $('result-review').onclick = startReview;
  $('replay-review').onclick = startReview;
  $('review-record').onclick = async () => { try { (await loadReview()).openRecord(); } catch (e) { fail(e); } };
  for (const b of $('replay-bar').querySelectorAll('[data-step]')) b.onclick = () => replayStep(Number(b.dataset.step));
}

export function openResult(focus = true) {
  const st = game();
  if (!st || !st.over || !st.result || $('game-view').hidden) return; // not over a profile (account.js)
  const asked = ends;
  ending ||= import('./ending.js').then((m) => m.ready.then(() => m)).catch((e) => { ending = null; throw e; });
  ending.then((m) => { if (asked === ends) m.showEnding(focus); }, fail);
}

export function closeResult() {
  ends++;
  if ($('result').open) $('result').close();
}

async function loadReview() {
  if (!review) {
    const m = await import('./review.js');
    await m.init({ go: replayTo, fail, closeResult });
    review = m;
  }
  return review;
}

async function startReview() {
  try { (await loadReview()).begin(); } catch (e) { fail(e); }
}

// positions lists the finished game's positions: from the server when its
// state gives them (positions, in the notation), else those this page saw.
function positions() {
  const { state, snapshots } = snapshot();
  if (Array.isArray(state.positions) && state.positions.length > 1) return state.positions.map(parsePosition).filter(Boolean);
  return [...snapshots.keys()].sort((a, b) => a - b).map((ply) => ({ ply, model: snapshots.get(ply) }));
}

// replayStep goes step (-1, 1) positions back or on.
export function replayStep(step) {
  if (S.replay) { replayTo(S.replay.index + step); return; }
  if (step > 0 || !game()?.over) return;
  replayTo(positions().length - 1 + step); // from the final position
}

// replayTo shows position index of the finished game (clamped; the last
// is the final position, which ends the replay unless a review is open).
function replayTo(index) {
  const { state: st, phase } = snapshot();
  const record = S.replay && S.replay.record; // a pasted record's review
  if (!record && (!st || !st.over || phase === 'showing')) return;
  if (!S.replay) {
    const plies = positions();
    if (plies.length < 2) return;
    S.replay = { plies, index: plies.length - 1 };
  }
  const r = S.replay;
  r.index = Math.max(0, Math.min(r.plies.length - 1, index));
  r.model = r.plies[r.index].model;
  r.marks = null;
  if (r.index === r.plies.length - 1 && !S.reviewing) S.replay = null;
  if (S.reviewing && review) review.show();
  invalidate();
  if (S.reviewing && review) announce(`${statusText()} ${review.say(r.index)}`);
  else announce(S.replay ? statusText() : t('replay.end'));
}
