// The leaderboards at /leaderboard/SPEED (docs/API.md, "Accounts and
// ratings"): a tab per speed, each the server's top 100 of the players
// active in the last 30 days whose rating is no longer provisional. Loaded
// on demand by account.js.

import { t, num } from './i18n.js';
import { call } from './api.js';
import { el } from './dom.js';
import { say, sayText, ratingText, SPEEDS, onLang, pageLink } from './pages.js';

let shown = null; // {root, speed, boards: {speed: leaders}, failed}

onLang(() => { if (shown && !shown.root.hidden) draw(); });

// show draws the leaderboard of speed in root, fetching it.
export async function show(root, speed, ctx) {
  if (!shown || shown.root !== root) shown = { root, boards: {}, ctx };
  shown.speed = speed;
  draw('leaders-title');
  await load(speed);
}

async function load(speed) {
  const s = shown;
  if (s.boards[speed]) return;
  try {
    s.boards[speed] = (await call('GET', `/api/leaderboard/${speed}`)).leaders || [];
    s.failed = null;
  } catch (e) { s.failed = say(e); }
  if (s.speed === speed) draw();
}

// pick shows speed's tab, at its own address.
function pick(speed, focus) {
  shown.speed = speed;
  history.replaceState(null, '', `/leaderboard/${speed}`);
  draw(focus ? `leaders-tab-${speed}` : undefined);
  load(speed);
}

function draw(focusId) {
  const s = shown;
  const root = s.root;
  const focused = focusId || (root.contains(document.activeElement) ? document.activeElement.id : '');
  root.textContent = '';
  const tabs = el('div', { className: 'tabs', role: 'tablist', 'aria-labelledby': 'leaders-title' }, ...SPEEDS.map((sp) => {
    const on = sp === s.speed;
    const b = el('button', { type: 'button', id: `leaders-tab-${sp}`, role: 'tab', 'aria-selected': String(on), 'aria-controls': 'leaders-panel', tabIndex: on ? 0 : -1, textContent: t(`profile.speed.${sp}`) });
    b.onclick = () => pick(sp, true);
    b.onkeydown = (e) => {
      const rtl = document.documentElement.dir === 'rtl';
      const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, Home: -Infinity, End: Infinity }[e.key];
      if (step === undefined) return;
      e.preventDefault();
      const i = SPEEDS.indexOf(sp);
      const j = Math.abs(step) === Infinity ? (step < 0 ? 0 : SPEEDS.length - 1) : (i + step + SPEEDS.length) % SPEEDS.length;
      pick(SPEEDS[j], true);
    };
    return b;
  }));
  const panel = el('div', { id: 'leaders-panel', role: 'tabpanel', 'aria-labelledby': `leaders-tab-${s.speed}`, tabIndex: 0 });
  const list = s.boards[s.speed];
  if (s.failed && !list) panel.append(el('p', { className: 'error', role: 'alert', textContent: sayText(s.failed) }));
  else if (!list) panel.append(el('p', { className: 'note', textContent: t('games.loading') }));
  else if (!list.length) panel.append(el('p', { className: 'none', textContent: t('leaders.none') }));
  else {
    panel.append(el('table', { className: 'leaders' },
      el('caption', { className: 'sr-only', textContent: t('leaders.caption', { speed: t(`profile.speed.${s.speed}`) }) }),
      el('thead', {}, el('tr', {}, ...['leaders.rank', 'leaders.player', 'profile.rating', 'profile.games'].map((k, i) => el('th', { scope: 'col', className: i === 1 ? '' : 'num', textContent: t(k) })))),
      el('tbody', {}, ...list.map((l) => el('tr', {},
        el('td', { className: 'num', textContent: num(l.rank) }),
        el('th', { scope: 'row' }, pageLink(`/@/${encodeURIComponent(l.username)}`, null, l.username, '')),
        el('td', { className: 'num', textContent: ratingText(l.rating) }),
        el('td', { className: 'num', textContent: num(l.rating.games) }))))));
  }
  root.append(el('p', { className: 'page-nav' }, pageLink('/', 'nav.game')),
    el('h2', { id: 'leaders-title', tabIndex: -1, textContent: t('leaders.heading') }),
    el('p', { className: 'note', textContent: t('leaders.note') }), tabs, panel);
  if (focused) document.getElementById(focused)?.focus();
}
