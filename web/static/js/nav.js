// The page's views and header: the game, #howto, #lobby (lobby.js), the
// account's pages (account.js), the language, the account's button,
// "Your games"; the modules of the lobby and accounts loaded when wanted.

import { t, setLang, currentLang } from './i18n.js';
import { board, relog } from './view.js';
import { $, el } from './dom.js';
import { kept } from './me.js';
import { fail, openById, loadOnline, accountPage, boardShown } from './game.js';
import { openResult, closeResult } from './replay.js';
import { sync } from './newgame.js';

let lobby = null; // lobby.js once #lobby has been visited
let account = null; // account.js once wanted
let howtoLang = null; // the language of the fragment shown

const loadAccount = async () => account ||= await import('./account.js').then((m) => { m.init({ open: openById, fail, board: boardShown }); return m; });

// init wires the header: the language (sel, set to lang) and buttons.
export function init(sel, lang) {
  sel.value = lang;
  sel.onchange = () => changeLang(sel.value);
  const b = $('nav-account');
  const name = kept();
  if (name) b.removeAttribute('data-i18n-label'), b.setAttribute('aria-label', name), b.lastChild.removeAttribute('data-i18n'), b.lastChild.textContent = name;
  b.onclick = () => loadAccount().then((m) => m.openMenu(), fail);
  if (accountPage()) {
    $('game-view').hidden = true;
    document.head.prepend(el('base', { href: '/' })); // for relative addresses
    loadAccount().catch(fail);
  }
  $('nav-games').onclick = async () => { try { (await loadOnline()).showGames(); } catch (e) { fail(e); } };
}

// route shows the view the address's hash names.
export async function route() {
  const view = { '#howto': 'howto', '#lobby': 'lobby' }[location.hash] || 'game';
  const wasHowto = !$('howto-view').hidden;
  $('game-view').hidden = view !== 'game' || accountPage();
  $('howto-view').hidden = view !== 'howto';
  if (view !== 'game') {
    closeResult();
    for (const d of document.querySelectorAll('dialog[open]')) d.close();
  }
  if (view === 'lobby' || lobby) {
    try {
      lobby ||= await import('./lobby.js');
      lobby.show(view === 'lobby', { open: play, fail });
    } catch (e) { play(null); fail(e); }
  }
  if (view === 'howto') {
    await showHowto();
    $('howto-heading').focus();
  } else if (wasHowto && view === 'game') {
    $('nav-howto').focus(); // back where the reader left the game
  }
}

// play leaves the lobby for the board, with game id (if any) on it and
// the focus, which was on the lobby's buttons.
async function play(id) {
  if (location.hash) history.pushState(null, '', location.pathname + location.search);
  route();
  scrollTo(0, 0); // the board from its top, wherever the lobby was scrolled
  if (id) await openById(id);
  board.focus({ preventScroll: true });
}

// showHowto shows the rules in the page's language (howto.js), or, if
// they cannot be loaded, says so and gives the controls.
async function showHowto() {
  const lang = currentLang();
  if (howtoLang === lang) return;
  howtoLang = lang;
  const body = $('howto-body');
  try {
    await (await import('./howto.js')).loadHowto(body, lang);
  } catch {
    body.textContent = '';
    for (const key of ['howto.loadFailed', 'howto.click', 'keys.help', 'help.arrows']) body.append(el('p', {}, t(key)));
  }
}

async function changeLang(code) {
  await setLang(code);
  sync();
  relog();
  if ($('result').open) openResult(false);
  if (!$('howto-view').hidden) await showHowto();
  else howtoLang = null;
}
