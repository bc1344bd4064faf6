// The keyboard: ←/→ choose a square, Z sows toward the screen's left, X
// toward its right (on the top row that is R), Esc cancels.

import { screenOrder } from './board.js';

// keyAction says what a key does, given the selected cell (or null), the
// playable cells, whether the board is turned round and the cell that has
// the focus (or null): {select}, {sow}, {cancel}, or null. With no cell
// selected (after Esc, say), ←/→ go on from the focused square.
export function keyAction(key, selected, playable, flipped = false, focused = null) {
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const order = screenOrder(flipped).filter((c) => playable.has(c));
    if (!order.length) return null;
    const step = key === 'ArrowRight' ? 1 : order.length - 1;
    const i = order.indexOf(selected ?? focused);
    if (i < 0) return { select: key === 'ArrowRight' ? order[0] : order[order.length - 1] };
    return { select: order[(i + step) % order.length] };
  }
  if (selected === null) return null;
  switch (key) {
    case 'z': case 'Z': return { sow: 'left' };
    case 'x': case 'X': return { sow: 'right' };
    case 'Escape': return { cancel: true };
    default: return null;
  }
}

// ownKey says whether a key event is left to the game: not a shortcut
// with a modifier, not typed into a text field. A focused select, radio
// button or checkbox does not keep the game's keys (a setting changed with
// the mouse keeps the focus, and ←/→ must still choose a square).
export function ownKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return false;
  const el = e.target;
  if (!el || !el.closest) return true;
  if (el.closest('textarea, [contenteditable]')) return false;
  return !(el.matches('input') && !['checkbox', 'radio', 'button', 'submit'].includes(el.type));
}
