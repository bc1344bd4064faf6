// The ending dialog (loaded when a game ends: a first visit does without
// it): who won, the final count, why the game ended, and in a rated game
// the rating change, in the words of result.js.

import { t } from './i18n.js';
import { renderTallies, winnerText, whyText, ratingText } from './result.js';
import { call } from './api.js';
import { S, me, playerName, isAI, game } from './state.js';
import { $, el } from './dom.js';

// ready says the dialog's styles (css/result.css) have loaded: it is
// never shown without them (replay.js waits for it).
export const ready = new Promise((resolve) => {
  document.head.append(el('link', { rel: 'stylesheet', href: '/css/result.css', onload: resolve, onerror: resolve }));
});

// showEnding opens the ending dialog on the game shown, which is over,
// with the focus on "New game" if focus.
export function showEnding(focus) {
  const st = game();
  if (!st || !st.over || !st.result) return;
  renderTallies($('tallies'), st.result, playerName);
  $('winner').textContent = st.end === 'abort' ? t('result.aborted') : winnerText(st.result, me(), playerName, isAI());
  // An aborted game was never played: no count to show.
  $('tallies').hidden = $('result-heading').hidden = st.end === 'abort';
  // Abandoned by this player: the other claimed, by name if named (names.js).
  const other = me() === null ? null : 1 - me();
  const named = st.end === 'abandon' && other === st.result.winner && S.named?.(other);
  const why = named ? t('lobby.why.you-abandon', { name: named }) : whyText(st.end, st.result, playerName, me(), st.endReason);
  $('result-why').textContent = why;
  $('result-why').hidden = !why;
  $('result-review').hidden = !st.moves.length;
  showRatings(st);
  const dlg = $('result');
  if (!dlg.open) dlg.showModal();
  if (focus) $('result-new').focus();
}

// useStyle loads the styles of the rating change, the lobby and the
// phrases (css/lobby.css), once.
export function useStyle() {
  if (document.getElementById('lobby-style')) return;
  document.head.append(Object.assign(document.createElement('link'), { id: 'lobby-style', rel: 'stylesheet', href: '/css/lobby.css' }));
}

// Ratings --------------------------------------------------------------

// seated holds, by game id, the answer of GET /api/games/{id}/players
// (docs/API.md): each seat's rating before and after, with its RD, which
// says whether it is provisional ("?"). GameState's ratings lack it.
const seated = new Map();

// showRatings writes the rating change of a rated game that ended (the
// state's ratings) under the winner: the player's own, or both seats'
// for a watcher. The line waits for the players' provisional marks,
// fetched once; it shows without them if they cannot be had.
function showRatings(st) {
  let line = $('result-rating');
  if (!line) {
    line = document.createElement('p');
    line.id = 'result-rating';
    line.className = 'rating-change';
    useStyle();
    $('winner').after(line);
  }
  const r = st.ratings;
  const known = seated.get(st.id);
  line.hidden = !r || !known;
  if (!r) return;
  if (!known) {
    const got = (v) => { seated.set(st.id, v); if (game()?.id === st.id && $('result').open) showRatings(game()); };
    call('GET', `/api/games/${st.id}/players`).then(got, () => got({ players: [] }));
    return;
  }
  const seats = me() === null ? [0, 1] : [me()];
  line.textContent = seats.map((p) => {
    const change = ratingText(r.speed, r.before[p], r.after[p], known.players?.[p] || {});
    return seats.length > 1 ? t('lobby.ratingOf', { name: playerName(p), change }) : change;
  }).join(' · ');
}

