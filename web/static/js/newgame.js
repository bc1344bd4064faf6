// The new-game dialog: who plays, the computer's level, who moves first,
// the rules' options and, for a game online, its clock (online.js,
// clockform.js); the settings it starts with are kept (state.js). Loaded
// when first opened (nav.js).

import { t, translateDOM } from './i18n.js';
import { S, saveSettings } from './state.js';
import { $ } from './dom.js';
import { fail, newGame, loadOnline, onlineShown } from './game.js';
import { closeResult } from './replay.js';

// build makes the dialog and wires it.
function build() {
  const tpl = document.createElement('template');
  tpl.innerHTML = DIALOG;
  const dlg = tpl.content.firstElementChild;
  $('result').before(dlg);
  translateDOM(dlg);
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

// open opens the dialog, filled with the settings (made the first time).
export async function open() {
  if (!$('newgame')) build();
  closeResult();
  if (S.settings.mode === 'online') await loadOnline().catch(() => {}); // its clock at once
  fillNewGame();
  const dlg = $('newgame');
  dlg.returnValue = '';
  dlg.showModal();
  $('newgame-start').focus(); // the settings start as they were: Enter starts
}

const DIALOG = `<dialog id="newgame" aria-labelledby="newgame-title">
  <form method="dialog" id="newgame-form">
    <h2 id="newgame-title" data-i18n="settings.heading"></h2>
    <fieldset class="choices"><legend data-i18n="mode.label"></legend>
      <label><input type="radio" name="mode" value="ai"> <span data-i18n="mode.ai"></span></label>
      <label><input type="radio" name="mode" value="local"> <span data-i18n="mode.local"></span></label>
      <label><input type="radio" name="mode" value="online"> <span data-i18n="mode.online"></span> <small id="online-needs" class="needs" data-i18n="mode.needsServer" hidden></small></label>
      <a class="btn" href="#lobby" data-i18n="lobby.nav"></a>
    </fieldset>
    <fieldset class="choices" id="newgame-level"><legend data-i18n="level.label"></legend>
      <label><input type="radio" name="level" value="easy"> <span data-i18n="level.easy"></span></label>
      <label><input type="radio" name="level" value="medium"> <span data-i18n="level.medium"></span></label>
      <label><input type="radio" name="level" value="hard"> <span data-i18n="level.hard"></span></label>
    </fieldset>
    <fieldset class="choices"><legend data-i18n="first.label"></legend>
      <label><input type="radio" name="first" value="0"> <span id="first-0">You</span></label>
      <label><input type="radio" name="first" value="1"> <span id="first-1">Computer</span></label>
      <label id="first-random" hidden><input type="radio" name="first" value="random"> <span data-i18n="first.random"></span></label>
    </fieldset>
    <fieldset class="choices variants"><legend data-i18n="variants.heading"></legend>
      <label><input type="checkbox" name="variant" value="young-mandarin"> <span data-i18n="variant.young-mandarin"></span></label>
      <label><input type="checkbox" name="variant" value="strict-mandarin-stop"> <span data-i18n="variant.strict-mandarin-stop"></span></label>
      <label><input type="checkbox" name="variant" value="pebble-mandarins"> <span data-i18n="variant.pebble-mandarins"></span></label>
    </fieldset>
    <div class="dialog-buttons">
      <button id="newgame-start" type="submit" value="start" class="primary" data-i18n="confirm.yes"></button>
      <button id="newgame-cancel" type="submit" value="cancel" data-i18n="button.cancel"></button>
    </div>
  </form>
</dialog>`;
