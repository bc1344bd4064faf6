// A player's profile at /@/NAME (docs/API.md, "Accounts and ratings"):
// ratings per speed ("?" while provisional), their history as a small
// graph with a table for screen readers, wins, draws and losses, recent
// games (each opens at the board, to go through and review), all games as
// one file of records, and for another player signed in, block and
// report. Everything shown is the server's; loaded on demand by account.js.

import { t, num, plural, currentLang } from './i18n.js';
import { call } from './api.js';
import { APIError } from './errors.js';
import { announce } from './view.js';
import { el, svg, button } from './dom.js';
import { me } from './me.js';
import { say, sayText, ratingText, points as pts, SPEEDS, onLang, pageLink } from './pages.js';

const REASONS = ['cheating', 'stalling', 'offensive_name', 'sandbagging', 'other'];

let shown = null; // {name, player, history, games, next, blocked, speed, ctx, root}

onLang(() => { if (shown && !shown.root.hidden) draw(); });

// show draws player name's profile in root, fetching it.
export async function show(root, name, ctx) {
  const s = { name, ctx, root, loading: true };
  shown = s;
  draw();
  try {
    const enc = encodeURIComponent(name);
    const [player, hist, games] = await Promise.all([
      call('GET', `/api/players/${enc}`),
      call('GET', `/api/players/${enc}/history`),
      call('GET', `/api/players/${enc}/games?limit=20`),
    ]);
    Object.assign(s, { player, history: hist.history || {}, games: games.games || [], next: games.next });
    s.speed = SPEEDS.filter((sp) => (s.history[sp] || []).length).sort((a, b) => s.history[b].length - s.history[a].length)[0] || null;
    if (me() && me().toLowerCase() !== player.username.toLowerCase()) {
      s.blocked = await call('GET', '/api/me/blocks').then((b) => (b.blocks || []).some((n) => n.toLowerCase() === player.username.toLowerCase()), () => null);
    }
  } catch (e) {
    s.failed = e instanceof APIError && e.code === 'not_found' ? { key: 'account.err.noPlayer' } : say(e);
  }
  s.loading = false;
  if (shown !== s) return;
  draw();
  announce(s.failed ? sayText(s.failed) : t('profile.loaded', { name: s.player.username }));
}

function draw() {
  const s = shown;
  const root = s.root;
  const focused = root.contains(document.activeElement) ? document.activeElement.id : 'profile-title';
  root.textContent = '';
  const title = el('h2', { id: 'profile-title', tabIndex: -1, textContent: s.player ? s.player.username : s.name });
  const nav = el('p', { className: 'page-nav' }, pageLink('/', 'nav.game'), pageLink('/leaderboard', 'leaders.heading'));
  root.append(nav, title);
  if (s.loading) root.append(el('p', { className: 'note', textContent: t('games.loading') }));
  else if (s.failed) root.append(el('p', { className: 'error', role: 'alert', textContent: sayText(s.failed) }));
  else {
    const p = s.player;
    if (p.joined) root.append(el('p', { className: 'note', textContent: t('profile.joined', { date: date(p.joined) }) }));
    root.append(ratings(p), graph(s), results(p), games(s), actions(s));
  }
  document.getElementById(focused)?.focus({ preventScroll: focused === 'profile-title' ? false : true });
}

function date(iso, time = false) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(currentLang(), time ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' }).format(d);
}

function section(id, key, ...kids) {
  return el('section', { id: `${id}-part`, className: 'panel profile-part', 'aria-labelledby': id }, el('h3', { id, textContent: t(key) }), ...kids);
}

function ratings(p) {
  const rows = SPEEDS.filter((sp) => p.ratings && p.ratings[sp]);
  if (!rows.length) return section('profile-ratings', 'profile.ratings', el('p', { className: 'none', textContent: t('profile.noRatings') }));
  const table = el('table', { className: 'ratings' },
    el('thead', {}, el('tr', {}, ...['profile.speed', 'profile.rating', 'profile.games'].map((k, i) => el('th', { scope: 'col', className: i ? 'num' : '', textContent: t(k) })))),
    el('tbody', {}, ...rows.map((sp) => {
      const r = p.ratings[sp];
      const val = el('td', { className: 'num', textContent: ratingText(r) });
      if (r.provisional) val.title = t('profile.provisional');
      return el('tr', {}, el('th', { scope: 'row', textContent: t(`profile.speed.${sp}`) }), val, el('td', { className: 'num', textContent: num(r.games) }));
    })));
  const note = rows.some((sp) => p.ratings[sp].provisional) ? el('p', { className: 'note', textContent: t('profile.provisionalNote') }) : null;
  return section('profile-ratings', 'profile.ratings', table, note);
}

// points places a history's ratings in a w×h box: x by game, y by rating
// between lo and hi (rounded out to 50s).
export function points(list, w, h) {
  const rs = list.map((p) => p.rating);
  const lo = Math.floor((Math.min(...rs) - 10) / 50) * 50;
  const hi = Math.ceil((Math.max(...rs) + 10) / 50) * 50;
  const x = (i) => (list.length === 1 ? w / 2 : (i * w) / (list.length - 1));
  const y = (r) => h - ((r - lo) / (hi - lo)) * h;
  return { lo, hi, xy: list.map((p, i) => [Math.round(x(i) * 10) / 10, Math.round(y(p.rating) * 10) / 10]) };
}

function graph(s) {
  const speeds = SPEEDS.filter((sp) => (s.history[sp] || []).length);
  if (!speeds.length) return section('profile-history', 'profile.history', el('p', { className: 'none', textContent: t('profile.noHistory') }));
  const list = s.history[s.speed];
  const W = 320, H = 120, L = 40, B = 4, T = 8;
  const { lo, hi, xy } = points(list, W - L - 8, H - T - B);
  const summary = plural('profile.graphSummary', list.length, {
    speed: t(`profile.speed.${s.speed}`), first: pts(list[0].rating), last: pts(list.at(-1).rating),
    high: pts(Math.max(...list.map((p) => p.rating))), low: pts(Math.min(...list.map((p) => p.rating))),
  });
  const pic = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'profile-graph-title', class: 'graph' },
    svg('title', { id: 'profile-graph-title' }, summary),
    svg('line', { x1: L, y1: T, x2: W - 8, y2: T, class: 'grid' }),
    svg('line', { x1: L, y1: H - B, x2: W - 8, y2: H - B, class: 'grid' }),
    svg('text', { x: L - 4, y: T + 4, 'text-anchor': 'end' }, pts(hi)),
    svg('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, pts(lo)),
    svg('polyline', { points: xy.map(([x, y]) => `${x + L},${y + T}`).join(' '), class: 'line' }),
    ...xy.map(([x, y]) => svg('circle', { cx: x + L, cy: y + T, r: list.length > 60 ? 1.2 : 2.5 })));
  const pick = el('select', { id: 'profile-speed' }, ...speeds.map((sp) => el('option', { value: sp, textContent: t(`profile.speed.${sp}`), selected: sp === s.speed })));
  pick.onchange = () => { s.speed = pick.value; draw(); };
  const table = el('table', { className: 'history' },
    el('thead', {}, el('tr', {}, ...['profile.when', 'profile.rating'].map((k, i) => el('th', { scope: 'col', className: i ? 'num' : '', textContent: t(k) })))),
    el('tbody', {}, ...list.slice(-20).reverse().map((p) => el('tr', {}, el('td', { textContent: date(p.at, true) }), el('td', { className: 'num', textContent: pts(p.rating) })))));
  return section('profile-history', 'profile.history',
    el('div', { className: 'field' }, el('label', { for: 'profile-speed', textContent: t('profile.speed') }), pick),
    el('figure', {}, pic, el('figcaption', { className: 'note', textContent: summary })),
    el('details', {}, el('summary', { textContent: t('profile.asTable') }), table));
}

function results(p) {
  const r = p.results || { wins: 0, draws: 0, losses: 0 };
  const items = [['wins', r.wins], ['draws', r.draws], ['losses', r.losses]];
  return section('profile-results', 'profile.results',
    el('ul', { className: 'results' }, ...items.map(([k, n]) => el('li', { className: k, textContent: plural(`profile.${k}`, n) }))));
}

// gameText says one of the player's games: against whom, how fast, when,
// how many moves, and how it ended (with the rating's change).
function gameText(g) {
  const who = g.opponent ? t('profile.vs', { name: g.opponent }) : t('profile.vsGuest');
  const parts = [who, g.rated ? t('profile.rated', { speed: t(`profile.speed.${g.rated}`) }) : t('profile.casual'), date(g.created, true), plural('games.moves', g.moves)];
  return parts.join(t('games.sep'));
}

function outcome(g) {
  if (!g.result) return t('games.playing');
  let text = t(`profile.result.${g.result}`);
  if (typeof g.ratingDiff === 'number') {
    const d = Math.round(g.ratingDiff);
    text += ` (${d > 0 ? '+' : d < 0 ? '−' : '±'}${num(Math.abs(d))})`;
  }
  return text;
}

function games(s) {
  const list = el('ul', { className: 'games-list' });
  if (!s.games.length) list.append(el('li', { className: 'none', textContent: t('games.none') }));
  for (const g of s.games) {
    // The opponent's profile, from the game (a link cannot sit in the
    // row's button).
    const them = g.opponent ? el('p', { className: 'opponent' }, pageLink(`/@/${encodeURIComponent(g.opponent)}`, null, t('profile.of', { name: g.opponent }), '')) : null;
    list.append(el('li', {}, el('button', { type: 'button', className: `game-row ${g.result || ''}`, onclick: () => s.ctx.open(g.id) },
      el('span', { className: 'what', textContent: gameText(g) }),
      el('span', { className: 'turn', textContent: outcome(g) })), them));
  }
  const more = s.next ? button('profile.more', async () => {
    try {
      const page = await call('GET', `/api/players/${encodeURIComponent(s.player.username)}/games?limit=20&before=${encodeURIComponent(s.next)}`);
      s.games.push(...(page.games || []));
      s.next = page.next;
      draw();
      more.focus?.();
    } catch (e) { announce(sayText(say(e))); }
  }) : null;
  if (more) more.id = 'profile-more';
  const download = el('a', { className: 'btn', id: 'profile-download', href: `/api/players/${encodeURIComponent(s.player.username)}/records`, download: '', textContent: t('profile.download') });
  return section('profile-games', 'profile.games', list, more, el('p', {}, download));
}

// actions are block and report, for another player than the one signed in.
function actions(s) {
  const p = s.player;
  const mine = me() && me().toLowerCase() === p.username.toLowerCase();
  if (mine) return el('p', { className: 'note', textContent: t('profile.yours') });
  const said = el('p', { id: 'profile-said', className: 'note', role: 'status' });
  const parts = [];
  if (me()) {
    const b = el('button', { type: 'button', id: 'profile-block', textContent: t(s.blocked ? 'account.unblock' : 'profile.block') });
    b.onclick = async () => {
      try {
        await call(s.blocked ? 'DELETE' : 'POST', `/api/me/blocks/${encodeURIComponent(p.username)}`);
        s.blocked = !s.blocked;
        draw();
        const text = t(s.blocked ? 'profile.blocked' : 'account.unblocked', { name: p.username });
        document.getElementById('profile-said').textContent = text;
      } catch (e) { said.textContent = sayText(say(e)); }
    };
    parts.push(el('p', { className: 'note', textContent: t('profile.blockNote') }), b);
  }
  const reason = el('select', { id: 'profile-reason', name: 'reason' }, ...REASONS.map((r) => el('option', { value: r, textContent: t(`profile.reason.${r}`) })));
  const game = el('select', { id: 'profile-game', name: 'game' }, el('option', { value: '', textContent: t('profile.noGame') }),
    ...s.games.slice(0, 10).map((g) => el('option', { value: g.id, textContent: gameText(g) })));
  const report = el('form', { className: 'report' },
    el('div', { className: 'field' }, el('label', { for: 'profile-reason', textContent: t('profile.reason') }), reason),
    el('div', { className: 'field' }, el('label', { for: 'profile-game', textContent: t('profile.aboutGame') }), game),
    el('button', { type: 'submit', id: 'profile-report', textContent: t('profile.report') }));
  report.onsubmit = async (e) => {
    e.preventDefault();
    try {
      await call('POST', `/api/players/${encodeURIComponent(p.username)}/report`, game.value ? { reason: reason.value, game: game.value } : { reason: reason.value });
      said.textContent = t('profile.reported');
    } catch (x) { said.textContent = sayText(say(x)); }
  };
  return section('profile-safety', 'profile.safety', ...parts,
    el('details', {}, el('summary', { textContent: t('profile.reportHeading') }), el('p', { className: 'note', textContent: t('profile.reportNote') }), report), said);
}
