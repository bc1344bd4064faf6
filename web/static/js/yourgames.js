// "Your games": the games this browser holds a seat in, the most urgent
// first, each with whom it is against, since when and how it stands, as
// the server says.

import { t, plural, num, currentLang } from './i18n.js';
import { api } from './api.js';
import { seatOf, heldGames, keptSince } from './secrets.js';
import { game } from './state.js';
import { $, el, button } from './dom.js';
import { formatTime, urgency } from './clock.js';
import { localDigits } from './clocks.js';
import { versus, gameNames } from './names.js';

// showGames opens the list of the games this browser holds a seat in;
// open(id) shows the one chosen.
export async function showGames(open) {
  let dlg = $('games');
  if (!dlg) {
    dlg = el('dialog', { id: 'games', 'aria-labelledby': 'games-title' },
      el('h2', { id: 'games-title' }),
      el('ul', { id: 'games-list', className: 'games-list' }),
      el('div', { className: 'dialog-buttons' }, button('button.close', () => dlg.close(), { id: 'games-close' })));
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
    const b = el('button', { type: 'button', className: 'game-row', onclick: () => { dlg.close(); open(g.id); } },
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
