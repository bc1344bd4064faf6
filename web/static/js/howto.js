// The how-to-play view: a fragment of plain HTML per language
// (howto/LANG.html), with example boards drawn from the notation. Loaded
// with the view (nav.js), as its fragment is.

import { t, num, list } from './i18n.js';
import { LEFT, RIGHT, TOP, BOTTOM, cellOf, squareOf, isMandarin, parseBoard, createBoard, updateBoard, mandarinContents } from './board.js';
import { el } from './dom.js';

// loadHowto puts lang's fragment (or the English one) into body and draws
// its example boards; it throws if neither loads (nav.js then says so).
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
  throw new Error('no how-to-play fragment');
}

// renderMiniBoards draws each figure.mini-board under root from its
// data-position, outlining data-highlight's squares (numbers, L, R).
function renderMiniBoards(root) {
  for (const fig of root.querySelectorAll('figure.mini-board')) {
    const model = parseBoard(fig.dataset.position);
    if (!model) continue;
    const hl = new Set((fig.dataset.highlight || '').split(/\s+/).filter(Boolean).map((h) => {
      if (h.toUpperCase() === 'L') return LEFT;
      if (h.toUpperCase() === 'R') return RIGHT;
      return cellOf(Number(h));
    }));
    const box = el('div', 'board mini');
    box.dir = 'ltr';
    box.setAttribute('role', 'img');
    createBoard(box, false);
    updateBoard(box, model, { classes: (c) => (hl.has(c) ? ['hl'] : []) });
    // The label names the mandarin squares itself: say only what they hold.
    const count = (c) => (isMandarin(c) ? mandarinContents(model.cells[c], model.stones[c === LEFT ? 0 : 1]) : num(model.cells[c]));
    let label = t('mini.label', {
      top: list(TOP.map(count)), bottom: list(BOTTOM.map(count)),
      left: count(LEFT), right: count(RIGHT),
    });
    if (hl.size) {
      label += ' ' + t('mini.highlight', {
        cells: list([...hl].map((c) => (isMandarin(c) ? t(c === LEFT ? 'mandarin.left' : 'mandarin.right') : num(squareOf(c)))), 'and'),
      });
    }
    box.setAttribute('aria-label', label);
    fig.querySelector('.board.mini')?.remove();
    fig.prepend(box);
  }
}
