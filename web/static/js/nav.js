// The page's views and header: the game, #howto, #lobby (lobby.js), the
// account's pages (account.js), the language, the account's button,
// "Your games", New game (newgame.js); modules loaded when wanted.

import { setLang, currentLang } from './i18n.js';
import { loadHowto } from './howto.js';
import { board, relog } from './view.js';
import { $, el } from './dom.js';
import { kept } from './me.js';
import { fail, openById, loadOnline, accountPage, boardShown } from './game.js';
import { openResult, closeResult } from './replay.js';

let lobby = null; // lobby.js once #lobby has been visited
let account = null; // account.js once wanted
let newgame = null; // newgame.js once the dialog has been opened
let howtoLang = null; // the language of the fragment shown

// openNewGame opens the new-game dialog.
function openNewGame() {
  import('./newgame.js').then((m) => {
    if (!newgame) m.init();
    newgame = m;
    return m.open();
  }).catch(fail);
}

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
  $('new').onclick = openNewGame;
  $('result-new').onclick = openNewGame;
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

async function showHowto() {
  const lang = currentLang();
  if (howtoLang === lang) return;
  howtoLang = lang;
  await loadHowto($('howto-body'), lang);
}

async function changeLang(code) {
  await setLang(code);
  newgame?.sync();
  relog();
  if ($('result').open) openResult(false);
  if (!$('howto-view').hidden) await showHowto();
  else howtoLang = null;
}
