// The how-to-play view: a fragment of plain HTML per language
// (howto/LANG.html), with example boards drawn from the notation.

import { t } from './i18n.js';
import { renderMiniBoards } from './board.js';

// loadHowto puts lang's fragment (or the English one) into body and draws
// its example boards; if neither loads, it says so and gives the controls.
export async function loadHowto(body, lang) {
  for (const code of [lang, 'en']) {
    try {
      const res = await fetch(`/howto/${code}.html`);
      if (!res.ok) continue;
      body.innerHTML = await res.text();
      // The fragment's ids live beside the game's: give them a prefix.
      for (const e of body.querySelectorAll('[id]')) e.id = 'howto-' + e.id;
      for (const a of body.querySelectorAll('a[href^="#"]')) a.setAttribute('href', '#howto-' + a.getAttribute('href').slice(1));
      renderMiniBoards(body);
      body.dataset.lang = code;
      return;
    } catch { /* try English */ }
  }
  body.textContent = '';
  for (const key of ['howto.loadFailed', 'howto.click', 'keys.help', 'help.arrows']) {
    const p = document.createElement('p');
    p.textContent = t(key);
    body.append(p);
  }
}
