// The ending's words: the final count laid out as in seed 001's example
// (each player's mandarins + pebbles + swept − debt (+ what the other
// repaid) = total), who won, why the game ended, a rating's change. Pure
// of the page's state: ending.js fills the dialog with them.

import { t, plural, num, currentLang } from './i18n.js';
import { el } from './dom.js';

// ratingShown writes a rating as players read it: rounded, without a
// thousands separator, "?" after it while provisional ("1662?").
export function ratingShown(v, provisional) {
  const n = new Intl.NumberFormat(currentLang(), { useGrouping: false }).format(Math.round(v));
  return provisional ? t('lobby.provisional', { rating: n }) : n;
}

// ratingText says one seat's change, "Blitz rating: 1500? → 1662?
// (+162)", from its rating before and after and their marks ({before,
// after}: whether each was provisional); the difference is that of the
// two numbers shown, so that the sentence adds up.
export function ratingText(speed, before, after, marks) {
  const diff = Math.round(after) - Math.round(before);
  const signed = new Intl.NumberFormat(currentLang(), { signDisplay: 'exceptZero', useGrouping: false }).format(diff);
  return t('lobby.ratingChange', { speed: t('lobby.speed.' + speed), before: ratingShown(before, marks.before?.provisional), after: ratingShown(after, marks.after?.provisional), diff: signed });
}

// renderTallies fills box with one line per player of result (the
// state's result). name(p) is a player's name.
export function renderTallies(box, result, name) {
  box.textContent = '';
  result.players.forEach((tal, p) => {
    const line = el('p', 'tally');
    line.dataset.player = p;
    line.append(el('span', 'who', name(p)));
    const term = (value, label, op) => {
      if (op) line.append(el('span', 'op', op));
      const s = el('span', 'term');
      s.append(el('b', {}, num(value)), el('small', {}, label));
      line.append(s);
      return s;
    };
    term(tal.mandarinPoints, plural('mandarins', tal.mandarins));
    term(tal.pebbles, t('result.pebbles'), '+');
    term(tal.swept, t('result.swept'), '+');
    if (tal.debt) term(tal.debt, t('result.debt'), '−');
    if (tal.credit) term(tal.credit, t('result.credit'), '+');
    term(tal.total, t('result.total'), '=').classList.add('total');
    box.append(line);
    // A debt larger than the rest: say why the total is below zero.
    if (tal.total < 0) box.append(el('p', 'tally-note', t('result.negative', { name: name(p) })));
  });
}

// winnerText says who won. you is the seat of the person at this page
// (against the computer or a friend online), or null; ai says whether the
// other is the computer.
export function winnerText(result, you, name, ai) {
  const w = result.winner;
  if (w !== 0 && w !== 1) return t('result.draw');
  if (you === null || (w !== you && !ai)) return t('result.playerWins', { name: name(w) });
  return t(w === you ? 'result.youWin' : 'result.computerWins');
}

// whyText explains an ending other than the capture of both mandarin
// squares, or returns '' for that ending. result and name(p) say who
// lost; you is the seat of the person here, or null; reason is the
// state's endReason (an abort at a first move's limit, a claimed draw).
export function whyText(end, result, name, you = null, reason = '') {
  if (!end || end === 'mandarins' || end === 'none') return '';
  if (end === 'resign' || end === 'timeout' || end === 'abandon') {
    const loser = 1 - result.winner;
    return loser === you ? t('why.you-' + end) : t('why.' + end, { name: name(loser) });
  }
  if (end === 'abort' || end === 'draw') return t('why.' + end + ({ firstMove: 'FirstMove', claim: 'Claim' }[reason] || ''));
  return t('why.' + end) + ' ' + t('why.mandarinsLeft');
}
