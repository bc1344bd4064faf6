// The page's start: the view the address names, the strings, each part
// wired by its module (nav.js, controls.js, newgame.js, replay.js), then
// the game (game.js). The server decides every rule.

import { preferred, setLang } from './i18n.js';
import { invalidate } from './view.js';
import { $ } from './dom.js';
import * as nav from './nav.js';
import * as controls from './controls.js';
import * as newgame from './newgame.js';
import * as replay from './replay.js';
import * as game from './game.js';

async function start() {
  // Show the right view at once, before anything loads.
  $('game-view').hidden = /^#(howto|lobby)$/.test(location.hash);
  $('howto-view').hidden = location.hash !== '#howto';
  const lang = preferred();
  nav.init($('lang'), lang);
  await setLang(lang);
  controls.init();
  newgame.init();
  replay.init();
  invalidate();
  window.addEventListener('hashchange', nav.route);
  nav.route();
  game.start();
}

start();
addEventListener('load', () => import('../offline/install.js')); // docs/OFFLINE.md
