// The new-game dialog: who plays, the computer's level, who moves first,
// the rules' options and, for a game online, its clock (online.js,
// clockform.js); the settings it starts with are kept (state.js).

import { t } from './i18n.js';
import { S, saveSettings } from './state.js';
import { $ } from './dom.js';
import { fail, newGame, loadOnline, onlineShown } from './game.js';
import { closeResult } from './replay.js';

// init wires the dialog and the buttons that open it.
export function init() {
  const f = $('newgame-form');
  f.addEventListener('change', sync);
  // A game online with a clock: online.js may keep the dialog open.
  f.addEventListener('submit', (e) => onlineShown()?.submitClock(e));
  // 'made': online.js made it (a clock), shows it.
  $('newgame').addEventListener('close', () => {
    const how = $('newgame').returnValue;
    if (!/^(start|made)$/.test(how)) return;
    S.settings.mode = f.elements.mode.value;
    S.settings.level = f.elements.level.value;
    S.settings.first = f.elements.first.value === 'random' ? 'random' : Number(f.elements.first.value);
    S.settings.variants = [...f.querySelectorAll('input[name=variant]:checked')].map((b) => b.value);
    if (onlineShown()) S.settings.clock = onlineShown().readClock(f);
    saveSettings();
    if (how === 'start') newGame();
  });
  $('new').onclick = open;
  $('result-new').onclick = open;
}

function fillNewGame() {
  const s = S.settings;
  const f = $('newgame-form');
  f.elements.mode.value = s.mode === 'online' && !navigator.onLine ? 'ai' : s.mode;
  f.elements.level.value = s.level;
  f.elements.first.value = String(s.first);
  for (const box of f.querySelectorAll('input[name=variant]')) box.checked = s.variants.includes(box.value);
  if (onlineShown()) onlineShown().fillClock(f, s.clock);
  sync();
}

// sync shows the choices the mode chosen has, in the page's language.
export function sync() {
  const f = $('newgame-form');
  const mode = f.elements.mode.value || 'ai';
  $('newgame-level').hidden = mode !== 'ai';
  $('first-0').textContent = t(mode === 'local' ? 'player.p1' : 'player.you');
  $('first-1').textContent = t({ ai: 'player.computer', local: 'player.p2', online: 'player.friend' }[mode]);
  $('first-random').hidden = mode !== 'online';
  // Playing a friend online needs the server: not offered offline.
  const off = !navigator.onLine;
  f.querySelector('input[name=mode][value=online]').disabled = off;
  $('online-needs').hidden = !off;
  if (mode !== 'online' && f.elements.first.value === 'random') f.elements.first.value = '0';
  if (onlineShown()) onlineShown().syncClock(f, mode === 'online');
  else if (mode === 'online') loadOnline().then((m) => { m.fillClock(f, S.settings.clock); sync(); }, fail);
}

// open opens the dialog, filled with the settings.
async function open() {
  closeResult();
  if (S.settings.mode === 'online') await loadOnline().catch(() => {}); // its clock at once
  fillNewGame();
  const dlg = $('newgame');
  dlg.returnValue = '';
  dlg.showModal();
  $('newgame-start').focus(); // the settings start as they were: Enter starts
}
